#include "auth/usage_service.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "auth/sql_client_registry.h"
#include "auth/sql_usage_store.h"
#include "auth_test_support.h"
#include "tests/support/scratch_registry.h"

namespace codepayload::auth {
namespace {

using testing::FakeClock;
using testing::TempDir;

// 2026-11-24 12:00:30 UTC.
constexpr std::int64_t kNoonNov24 = 1'795'478'400 + 12 * 3600 + 30;
constexpr std::int64_t kDay = 86400;

// An interval no test waits for: the writer thread never writes on its own
// here; the tests call flush() and stop().
constexpr std::chrono::milliseconds kNever = std::chrono::hours(24);

class UsageServiceTest : public ::testing::Test {
 protected:
  UsageServiceTest()
      : database_(codepayload::testing::freshRegistryDatabase(dir_.path())),
        clock_(kNoonNov24),
        hasher_(std::string(32, 'p')),
        registry_(database_, testing::sourceRegistryMigrations(), hasher_, clock_.clock()),
        acme_(registry_.createOrganization("Acme", Plan::Starter)),
        globex_(registry_.createOrganization("Globex", Plan::Starter)),
        erp_(registry_.createClient(acme_.id, "ERP", {"write:codes"}, "tester").client),
        shop_(registry_.createClient(acme_.id, "Shop", {"write:codes"}, "tester").client),
        other_(registry_.createClient(globex_.id, "Other", {"write:codes"}, "tester").client),
        usage_(
            std::make_unique<SqlUsageStore>(database_), kNever,
            [this](const std::string& line) { log_.push_back(line); }, clock_.clock()) {}

  // Runs `sql` on a connection of its own.
  void execute(const std::string& sql) { EXPECT_EQ(codepayload::testing::rawSql(database_, sql), "") << sql; }

  // The stored rows, "client organization day tokens accepted rejected" each, in key order.
  std::vector<std::string> storedRows() {
    const std::string joined = codepayload::testing::rawColumn(
        database_,
        "SELECT client_id || ' ' || organization_id || ' ' || day || ' ' || tokens_issued || ' ' || codes_accepted"
        " || ' ' || codes_rejected FROM client_usage_daily ORDER BY client_id, day");
    std::vector<std::string> rows;
    for (std::size_t start = 0; !joined.empty() && start <= joined.size();) {
      const std::size_t end = std::min(joined.find('|', start), joined.size());
      rows.push_back(joined.substr(start, end - start));
      start = end + 1;
    }
    return rows;
  }

  // A trigger that refuses every new usage row with `message`, and its removal.
  void refuseUsageRows(const std::string& message) {
    if (codepayload::testing::registryBackendUnderTest() == codepayload::testing::RegistryBackend::Sqlite) {
      execute("CREATE TRIGGER refuse_usage BEFORE INSERT ON client_usage_daily BEGIN SELECT RAISE(ABORT, '" + message +
              "'); END");
    } else {
      execute("CREATE FUNCTION refuse_usage() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '" +
              message +
              "'; END $$; CREATE TRIGGER refuse_usage BEFORE INSERT ON client_usage_daily FOR EACH ROW"
              " EXECUTE FUNCTION refuse_usage()");
    }
  }
  void acceptUsageRows() {
    execute(codepayload::testing::registryBackendUnderTest() == codepayload::testing::RegistryBackend::Sqlite
                ? "DROP TRIGGER refuse_usage"
                : "DROP TRIGGER refuse_usage ON client_usage_daily; DROP FUNCTION refuse_usage()");
  }

  std::string row(const ClientRecord& client, const char* day, int tokens, int accepted, int rejected) {
    return client.id + " " + client.organizationId + " " + day + " " + std::to_string(tokens) + " " +
           std::to_string(accepted) + " " + std::to_string(rejected);
  }

  TempDir dir_;
  RegistryDatabase database_;
  FakeClock clock_;
  SecretHasher hasher_;
  SqlClientRegistry registry_;
  Organization acme_;
  Organization globex_;
  ClientRecord erp_;
  ClientRecord shop_;
  ClientRecord other_;
  std::vector<std::string> log_;
  UsageService usage_;
};

TEST_F(UsageServiceTest, ReadsExactlyTheAskedDaysOldestFirstEndingTodayZeroFilled) {
  const std::vector<DailyUsage> days = usage_.clientUsage(erp_.id, 30);
  ASSERT_EQ(days.size(), 30u);
  EXPECT_EQ(days.front(), (DailyUsage{"2026-10-26", 0, 0, 0}));
  EXPECT_EQ(days[1], (DailyUsage{"2026-10-27", 0, 0, 0}));
  EXPECT_EQ(days.back(), (DailyUsage{"2026-11-24", 0, 0, 0}));
  EXPECT_EQ(usage_.organizationUsage(acme_.id, 1), (std::vector<DailyUsage>{{"2026-11-24", 0, 0, 0}}));
  EXPECT_THROW(usage_.clientUsage(erp_.id, 0), std::invalid_argument);
  EXPECT_THROW(usage_.organizationUsage(acme_.id, UsageService::kMaxDays + 1), std::invalid_argument);
  EXPECT_EQ(usage_.clientUsage(erp_.id, UsageService::kMaxDays).size(), 366u);
}

TEST_F(UsageServiceTest, ReadsIncludeCountsNotYetWrittenAndWritingChangesNoRead) {
  clock_.set(kNoonNov24 - kDay);
  usage_.codesAnswered(erp_.id, acme_.id, 7, 1);
  clock_.set(kNoonNov24);
  usage_.tokenIssued(erp_.id, acme_.id);
  usage_.tokenIssued(erp_.id, acme_.id);
  usage_.codesAnswered(erp_.id, acme_.id, 10, 2);
  usage_.codesAnswered(shop_.id, acme_.id, 0, 4);
  usage_.codesAnswered(other_.id, globex_.id, 99, 0);

  const std::vector<DailyUsage> erpDays{{"2026-11-23", 0, 7, 1}, {"2026-11-24", 2, 10, 2}};
  const std::vector<DailyUsage> acmeDays{{"2026-11-23", 0, 7, 1}, {"2026-11-24", 2, 10, 6}};
  EXPECT_EQ(usage_.clientUsage(erp_.id, 2), erpDays);
  EXPECT_EQ(usage_.organizationUsage(acme_.id, 2), acmeDays);
  EXPECT_TRUE(storedRows().empty());

  EXPECT_TRUE(usage_.flush());
  std::vector<std::string> expected{
      row(erp_, "2026-11-23", 0, 7, 1),
      row(erp_, "2026-11-24", 2, 10, 2),
      row(shop_, "2026-11-24", 0, 0, 4),
      row(other_, "2026-11-24", 0, 99, 0),
  };
  std::sort(expected.begin(), expected.end());  // the rows come in client id order
  EXPECT_EQ(storedRows(), expected);
  EXPECT_EQ(usage_.clientUsage(erp_.id, 2), erpDays);
  EXPECT_EQ(usage_.organizationUsage(acme_.id, 2), acmeDays);
  EXPECT_EQ(usage_.organizationUsage(globex_.id, 1), (std::vector<DailyUsage>{{"2026-11-24", 0, 99, 0}}));

  // Counted after the write: stored plus in memory.
  usage_.tokenIssued(erp_.id, acme_.id);
  EXPECT_EQ(usage_.clientUsage(erp_.id, 1), (std::vector<DailyUsage>{{"2026-11-24", 3, 10, 2}}));
  EXPECT_EQ((usage_.flushCounts().writes), 1u);
}

TEST_F(UsageServiceTest, AWriteAddsToTheStoredRows) {
  usage_.codesAnswered(erp_.id, acme_.id, 1, 1);
  EXPECT_TRUE(usage_.flush());
  usage_.codesAnswered(erp_.id, acme_.id, 2, 0);
  usage_.tokenIssued(erp_.id, acme_.id);
  EXPECT_TRUE(usage_.flush());
  EXPECT_TRUE(usage_.flush());  // nothing to write
  EXPECT_EQ(storedRows(), (std::vector<std::string>{row(erp_, "2026-11-24", 1, 3, 1)}));
  EXPECT_EQ(usage_.flushCounts().writes, 2u);
  EXPECT_EQ(usage_.flushCounts().failures, 0u);
}

TEST_F(UsageServiceTest, RecordsTheLastUseToTheMinuteAndNeverMovesItBack) {
  EXPECT_EQ(registry_.findClient(erp_.id)->lastUsedAt, std::nullopt);
  usage_.tokenIssued(erp_.id, acme_.id);  // 12:00:30
  const std::int64_t noon = kNoonNov24 - 30;
  EXPECT_EQ(usage_.lastUsedAt(*registry_.findClient(erp_.id)), noon);  // not yet written
  EXPECT_TRUE(usage_.flush());
  EXPECT_EQ(registry_.findClient(erp_.id)->lastUsedAt, noon);
  EXPECT_EQ(registry_.findClient(shop_.id)->lastUsedAt, std::nullopt);
  EXPECT_EQ(usage_.lastUsedAt(*registry_.findClient(erp_.id)), noon);

  // Another instance wrote a later use; this one's earlier minute leaves it.
  execute("UPDATE api_clients SET last_used_at = " + std::to_string(noon + 600) + " WHERE id = '" + erp_.id + "'");
  clock_.set(kNoonNov24 + 120);
  usage_.codesAnswered(erp_.id, acme_.id, 1, 0);
  EXPECT_EQ(usage_.lastUsedAt(*registry_.findClient(erp_.id)), noon + 600);
  EXPECT_TRUE(usage_.flush());
  EXPECT_EQ(registry_.findClient(erp_.id)->lastUsedAt, noon + 600);
  clock_.set(kNoonNov24 + 3600);
  usage_.codesAnswered(erp_.id, acme_.id, 1, 0);
  EXPECT_TRUE(usage_.flush());
  EXPECT_EQ(registry_.findClient(erp_.id)->lastUsedAt, noon + 3600);
}

TEST_F(UsageServiceTest, AFailedWriteKeepsTheCountsLogsOnceAndTheNextWriteAddsThem) {
  usage_.codesAnswered(erp_.id, acme_.id, 5, 1);
  refuseUsageRows("usage refused by the test");
  EXPECT_FALSE(usage_.flush());
  usage_.tokenIssued(erp_.id, acme_.id);
  EXPECT_FALSE(usage_.flush());
  EXPECT_EQ(log_, (std::vector<std::string>{
                      "could not write API client usage to the registry (kept in memory, written again every "
                      "86400000 ms): registry database, adding usage: usage refused by the test"}));
  EXPECT_TRUE(storedRows().empty());
  EXPECT_EQ(registry_.findClient(erp_.id)->lastUsedAt, std::nullopt);  // rolled back with the counts
  EXPECT_EQ(usage_.clientUsage(erp_.id, 1), (std::vector<DailyUsage>{{"2026-11-24", 1, 5, 1}}));

  acceptUsageRows();
  EXPECT_TRUE(usage_.flush());
  EXPECT_EQ(storedRows(), (std::vector<std::string>{row(erp_, "2026-11-24", 1, 5, 1)}));
  EXPECT_EQ(registry_.findClient(erp_.id)->lastUsedAt, kNoonNov24 - 30);
  EXPECT_EQ(log_.back(), "API client usage is written to the registry again");
  EXPECT_EQ(log_.size(), 2u);
  EXPECT_EQ(usage_.clientUsage(erp_.id, 1), (std::vector<DailyUsage>{{"2026-11-24", 1, 5, 1}}));
  EXPECT_EQ(usage_.flushCounts().writes, 1u);
  EXPECT_EQ(usage_.flushCounts().failures, 2u);
}

TEST_F(UsageServiceTest, StopWritesOnceMore) {
  usage_.codesAnswered(other_.id, globex_.id, 3, 0);
  usage_.stop();
  EXPECT_EQ(storedRows(), (std::vector<std::string>{row(other_, "2026-11-24", 0, 3, 0)}));
  usage_.stop();  // idempotent
  EXPECT_EQ(usage_.flushCounts().writes, 1u);
}

TEST_F(UsageServiceTest, AnotherInstanceAddsToTheSameRows) {
  UsageService second(std::make_unique<SqlUsageStore>(database_), kNever, {}, clock_.clock());
  usage_.codesAnswered(erp_.id, acme_.id, 1, 0);
  second.codesAnswered(erp_.id, acme_.id, 2, 1);
  EXPECT_TRUE(usage_.flush());
  EXPECT_TRUE(second.flush());
  EXPECT_EQ(storedRows(), (std::vector<std::string>{row(erp_, "2026-11-24", 0, 3, 1)}));
  EXPECT_EQ(usage_.clientUsage(erp_.id, 1), (std::vector<DailyUsage>{{"2026-11-24", 0, 3, 1}}));
}

}  // namespace
}  // namespace codepayload::auth
