// The request path counts API client usage (D-D11): tokens issued at
// /oauth/token, codes accepted and rejected at /codes, a request refused as a
// whole as one rejected code; the service writes it to the registry when it
// stops. Real server, real clients.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <ctime>

#include "app/sqlite_registry.h"
#include "auth/auth_service.h"
#include "auth/usage_service.h"
#include "tests/server/support/sample_requests.h"
#include "tests/server/support/service_harness.h"

namespace codepayload::server {
namespace {

using testing::ApiClient;
using testing::kMixedBatch;
using testing::ServiceHarness;

// The sum over the last two days: a test that runs across midnight (UTC)
// still sees each count once.
auth::UsageCounts lastTwoDays(const std::vector<auth::DailyUsage>& days) {
  EXPECT_EQ(days.size(), 2u);
  auth::UsageCounts total;
  for (const auth::DailyUsage& day : days) total += {day.tokensIssued, day.codesAccepted, day.codesRejected};
  return total;
}

TEST(UsageCounting, TheTokenEndpointAndCodesCountPerClientAndTheStopWritesThem) {
  ServiceHarness harness([](ServerConfig& config) { config.usageFlushInterval = std::chrono::hours(1); });
  const ApiClient client = harness.createClient({"write:codes"});
  const ApiClient idle = harness.createClient({"write:codes"});
  const std::int64_t before = std::time(nullptr);
  const std::string token = harness.token(client);
  harness.token(client);

  ASSERT_EQ(harness.codes(token, kMixedBatch).status, 200);  // 2 accepted, 1 rejected
  ASSERT_EQ(harness.codes(token, "{not json").status, 400);  // refused as a whole: 1 rejected
  testing::HttpCall wrongType{
      "POST", "/codes", {{"Authorization", "Bearer " + token}, {"Content-Type", "text/plain"}}, "{}"};
  ASSERT_EQ(harness.request(wrongType).status, 415);                 // 1 rejected
  ASSERT_EQ(harness.codes("not-a-token", kMixedBatch).status, 401);  // no client: not counted
  testing::HttpCall badSecret{"POST",
                              "/oauth/token",
                              {{"Authorization", testing::basicAuthorization(client.clientId, "wrong")},
                               {"Content-Type", "application/x-www-form-urlencoded"}},
                              "grant_type=client_credentials"};
  ASSERT_EQ(harness.request(badSecret).status, 401);  // no token issued: not counted

  auth::UsageService& usage = harness.service().usage();
  EXPECT_EQ(lastTwoDays(usage.clientUsage(client.clientId, 2)), (auth::UsageCounts{2, 2, 3}));
  EXPECT_EQ(lastTwoDays(usage.organizationUsage(client.organizationId, 2)), (auth::UsageCounts{2, 2, 3}));
  EXPECT_EQ(lastTwoDays(usage.clientUsage(idle.clientId, 2)), (auth::UsageCounts{}));
  const std::optional<auth::ClientRecord> record = harness.service().auth().registry().findClient(client.clientId);
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->lastUsedAt, std::nullopt);  // not written yet
  const std::optional<std::int64_t> lastUse = usage.lastUsedAt(*record);
  ASSERT_TRUE(lastUse.has_value());
  EXPECT_EQ(*lastUse % 60, 0);
  EXPECT_GE(*lastUse, auth::truncateToMinute(before));
  EXPECT_LE(*lastUse, std::time(nullptr));

  harness.stop();
  sqlite3* db = nullptr;
  ASSERT_EQ(
      sqlite3_open_v2((harness.dataDir() / app::kRegistryDatabaseFile).c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
      SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT u.organization_id, sum(u.tokens_issued), sum(u.codes_accepted),"
                               " sum(u.codes_rejected), c.last_used_at FROM client_usage_daily u"
                               " JOIN api_clients c ON c.id = u.client_id WHERE u.client_id = ?",
                               -1, &statement, nullptr),
            SQLITE_OK);
  sqlite3_bind_text(statement, 1, client.clientId.c_str(), -1, SQLITE_TRANSIENT);
  ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0))), client.organizationId);
  EXPECT_EQ(sqlite3_column_int64(statement, 1), 2);
  EXPECT_EQ(sqlite3_column_int64(statement, 2), 2);
  EXPECT_EQ(sqlite3_column_int64(statement, 3), 3);
  EXPECT_EQ(sqlite3_column_int64(statement, 4), *lastUse);
  sqlite3_finalize(statement);
  sqlite3_close(db);
}

}  // namespace
}  // namespace codepayload::server
