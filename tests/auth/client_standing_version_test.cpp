// SqlClientRegistry::version() is the change counter of
// db/registry/0006_client_standing_version.sql (D-T3) and 0007 (D-T6): it
// moves on every change that can alter a row of listClientsForAuthentication,
// by this registry or any other connection, and on nothing else written to
// registry.db.
#include <Poco/Data/Session.h>
#include <gtest/gtest.h>

#include <string>

#include "accounts/sql_account_store.h"
#include "auth/sql_client_registry.h"
#include "auth/sql_usage_store.h"
#include "auth_test_support.h"
#include "tests/support/scratch_registry.h"

namespace codepayload::auth {
namespace {

using testing::FakeClock;
using testing::kTestEpoch;
using testing::TempDir;

constexpr std::string_view kPasswordHash =
    "$argon2id$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$gy5SuVm5Z7Vw7keB9se9p87QGcomaseB/S2U1OhTsM0";

class ClientStandingVersionTest : public ::testing::Test {
 protected:
  ClientStandingVersionTest()
      : hasher_(std::string(32, 'p')),
        database_(codepayload::testing::freshRegistryDatabase(dir_.path())),
        registry_(database_, testing::sourceRegistryMigrations(), hasher_, clock_.clock()),
        acme_(registry_.createOrganization("Acme GmbH", Plan::Starter)),
        erp_(registry_.createClient(acme_.id, "ERP", {"write:codes"}, "tester").client) {}

  // Runs `sql` on a raw connection of its own (another process); "" on
  // success, else the database's message.
  std::string executeElsewhere(const std::string& sql) const { return codepayload::testing::rawSql(database_, sql); }

  TempDir dir_;
  FakeClock clock_;
  SecretHasher hasher_;
  RegistryDatabase database_;
  SqlClientRegistry registry_;
  Organization acme_;
  ClientRecord erp_;
};

TEST_F(ClientStandingVersionTest, MovesByOneOnEveryChangeOfAStanding) {
  // A fresh registry: the counter starts at 0 and the one client created counted 1.
  EXPECT_EQ(registry_.version(), 1u);

  const ClientRecord crm = registry_.createClient(acme_.id, "CRM", {"write:codes"}, "tester").client;
  EXPECT_EQ(registry_.version(), 2u);
  registry_.setClientState(crm.id, ClientState::Blocked);
  EXPECT_EQ(registry_.version(), 3u);
  registry_.setClientState(crm.id, ClientState::Active);
  EXPECT_EQ(registry_.version(), 4u);
  registry_.setClientState(crm.id, ClientState::Deleted);
  EXPECT_EQ(registry_.version(), 5u);
  registry_.setPlan(acme_.id, Plan::Pro);
  EXPECT_EQ(registry_.version(), 6u);
  registry_.setSubscription(acme_.id, Subscription::Inactive);
  EXPECT_EQ(registry_.version(), 7u);

  // Another process's registry (the admin CLI's) on the same file: seen here.
  SqlClientRegistry other(database_, testing::sourceRegistryMigrations(), hasher_, clock_.clock());
  EXPECT_EQ(other.version(), 7u);
  other.setSubscription(acme_.id, Subscription::Active);
  EXPECT_EQ(registry_.version(), 8u);
  other.setClientState(erp_.id, ClientState::Blocked);
  EXPECT_EQ(registry_.version(), 9u);
  EXPECT_EQ(other.version(), 9u);

  // Raw changes by another connection to what the status rows read.
  EXPECT_EQ(
      executeElsewhere("UPDATE api_clients SET tokens_not_before = tokens_not_before + 1 WHERE id = '" + erp_.id + "'"),
      "");
  EXPECT_EQ(registry_.version(), 10u);
  EXPECT_EQ(executeElsewhere("UPDATE organizations SET plan = 'enterprise' WHERE id = '" + acme_.id + "'"), "");
  EXPECT_EQ(registry_.version(), 11u);
  EXPECT_EQ(executeElsewhere("DELETE FROM api_clients WHERE id = '" + crm.id + "'"), "");
  EXPECT_EQ(registry_.version(), 12u);
  // An organization removed with the foreign key off (a manual repair) leaves
  // its clients out of the status rows.
  const std::string foreignKeyOff = database_.kind == RegistryDatabase::Kind::Postgresql
                                        ? "ALTER TABLE api_clients DROP CONSTRAINT api_clients_organization_id_fkey; "
                                        : "";
  EXPECT_EQ(executeElsewhere(foreignKeyOff + "DELETE FROM organizations WHERE id = '" + acme_.id + "'"), "");
  EXPECT_EQ(registry_.version(), 13u);
  EXPECT_TRUE(registry_.listClientsForAuthentication().empty());
}

// Since 0007: the view also holds each client's scopes and secret digest.
TEST_F(ClientStandingVersionTest, MovesWhenAClientsScopesOrSecretDigestAreRewritten) {
  EXPECT_EQ(registry_.version(), 1u);
  EXPECT_EQ(executeElsewhere("UPDATE api_clients SET scopes = 'read:codes' WHERE id = '" + erp_.id + "'"), "");
  EXPECT_EQ(registry_.version(), 2u);
  EXPECT_EQ(executeElsewhere("UPDATE api_clients SET secret_digest = " +
                             codepayload::testing::zeroBytesSql(database_, 32) + " WHERE id = '" + erp_.id + "'"),
            "");
  EXPECT_EQ(registry_.version(), 3u);
  EXPECT_EQ(executeElsewhere("UPDATE api_clients SET scopes = scopes, secret_digest = secret_digest"), "");
  EXPECT_EQ(registry_.version(), 3u);
}

TEST_F(ClientStandingVersionTest, StaysOnWritesThatCannotChangeAStanding) {
  const std::uint64_t start = registry_.version();
  ASSERT_EQ(start, 1u);

  // Reads, and changes that change nothing: a block of a blocked client (with
  // its audit record, as the admin CLI and the dashboard record it), a plan set
  // to the plan it has.
  registry_.listClientsForAuthentication();
  registry_.findClientForAuthentication(erp_.id);
  registry_.setClientState(erp_.id, ClientState::Active);
  registry_.setPlan(acme_.id, Plan::Starter);
  registry_.setSubscription(acme_.id, Subscription::Active);
  accounts::SqlAccountStore accounts(database_, testing::sourceRegistryMigrations(), clock_.clock());
  registry_.setChangeRecorder([](Poco::Data::Session& session, const RegistryChange& change) {
    accounts::appendAuditRecord(
        session, accounts::AuditRecord{0, kTestEpoch, "cli:tester", change.action, change.target, change.organizationId,
                                       "local", accounts::AuditResult::Success, change.detail});
  });
  registry_.setClientState(erp_.id, ClientState::Active);
  EXPECT_EQ(accounts.readAudit({}).size(), 1u);
  EXPECT_EQ(registry_.version(), start);

  // A new organization: no client can name it yet.
  const Organization beta = registry_.createOrganization("Beta", Plan::Pro);
  EXPECT_EQ(registry_.version(), start);

  // The usage writer, with its own connection: counts and last_used_at.
  SqlUsageStore usage(database_);
  usage.add({ClientUsageDelta{erp_.id, acme_.id, {{utcDayNumber(kTestEpoch), UsageCounts{3, 5, 1}}}, kTestEpoch}});
  usage.add({ClientUsageDelta{erp_.id, acme_.id, {{utcDayNumber(kTestEpoch), UsageCounts{1, 0, 0}}}, kTestEpoch + 60}});
  EXPECT_EQ(registry_.findClient(erp_.id)->lastUsedAt, kTestEpoch + 60);
  EXPECT_EQ(registry_.version(), start);

  // The dashboard's people: a user, a session seen again and removed, a
  // setting, an audit entry of its own.
  const accounts::AuditContext dashboard{"operator:opr_0000000000000000", "192.0.2.1"};
  const accounts::UserRecord ana =
      accounts.createUser(acme_.id, "ana@example.com", accounts::Role::Owner, kPasswordHash, dashboard);
  const std::string digest(64, 'a');
  accounts.insertSession({digest, ana.id, kTestEpoch, kTestEpoch, kTestEpoch + 3600});
  accounts.touchSession(digest, kTestEpoch + 30);
  accounts.removeSession(digest);
  accounts.setRequireTotp(acme_.id, true, dashboard);
  accounts.appendAudit({0, kTestEpoch, "user:" + ana.id, "account.sign-in", ana.id, acme_.id, "192.0.2.1",
                        accounts::AuditResult::Refused, ""});
  EXPECT_EQ(registry_.version(), start);

  // Columns the view does not read, changed by another connection: a client
  // renamed (the registry has no such operation yet), an organization's name,
  // updated_at.
  EXPECT_EQ(executeElsewhere("UPDATE api_clients SET name = 'ERP (new)', updated_at = 7"
                             " WHERE id = '" +
                             erp_.id + "'"),
            "");
  EXPECT_EQ(executeElsewhere("UPDATE organizations SET name = 'Acme AG', updated_at = 7 WHERE id = '" + beta.id + "'"),
            "");
  // A standing column set to the value it has.
  EXPECT_EQ(executeElsewhere("UPDATE api_clients SET state = state, organization_id = organization_id"), "");
  EXPECT_EQ(executeElsewhere("UPDATE organizations SET plan = plan, subscription = subscription"), "");
  EXPECT_EQ(registry_.version(), start);

  // And a standing change after all of that still counts.
  registry_.setClientState(erp_.id, ClientState::Blocked);
  EXPECT_EQ(registry_.version(), start + 1);
}

TEST_F(ClientStandingVersionTest, AMissingCounterRowIsAStorageFault) {
  EXPECT_EQ(executeElsewhere("DELETE FROM client_standing_version"), "");
  try {
    registry_.version();
    FAIL() << "no error";
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::Storage);
    EXPECT_STREQ(error.what(), "registry database holds 0 rows in client_standing_version instead of one");
  }
  // The table allows no second row.
  EXPECT_EQ(executeElsewhere("INSERT INTO client_standing_version (id, version) VALUES (2, 0)"),
            database_.kind == RegistryDatabase::Kind::Postgresql
                ? "new row for relation \"client_standing_version\" violates check constraint"
                  " \"client_standing_version_id_check\""
                : "CHECK constraint failed: id = 1");
}

}  // namespace
}  // namespace codepayload::auth
