// Registries written by earlier schemas, upgraded by today's migrations with
// their rows kept. The rows are written as those schemas knew them, so the
// registry's old names appear here: this file and db/registry/0001..0009 are
// the only places that still spell "organisation" (0009 renames it).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <optional>
#include <string>

#include "auth/sql_client_registry.h"
#include "auth_test_support.h"
#include "db/migrations.h"
#include "tests/support/scratch_registry.h"

namespace codepayload::auth {
namespace {

using testing::FakeClock;
using testing::TempDir;

// The first column of `sql`'s rows, '|'-joined, read from the SQLite file `database`.
std::string rawColumn(const std::filesystem::path& database, const std::string& sql) {
  return codepayload::testing::rawColumn(RegistryDatabase::sqlite(database), sql);
}

class RegistryUpgradeTest : public ::testing::Test {
 protected:
  // registry.db as the migrations up to `lastVersion` left it.
  void migrateUpTo(int lastVersion) {
    std::filesystem::create_directories(before_);
    for (const Migration& migration : listMigrations(testing::sourceRegistryMigrations())) {
      if (migration.version <= lastVersion) std::filesystem::copy_file(migration.path, before_ / migration.fileName);
    }
    migrate(before_);
  }

  void migrate(const std::filesystem::path& folder) const {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(database().c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "PRAGMA foreign_keys = ON", nullptr, nullptr, nullptr);
    applyMigrations(db, folder);
    sqlite3_close(db);
  }

  // "" on success, else SQLite's message; foreign keys enforced.
  std::string sql(const std::string& statement) const {
    return codepayload::testing::rawSql(RegistryDatabase::sqlite(database()), "PRAGMA foreign_keys = ON; " + statement);
  }

  std::filesystem::path database() const { return dir_.path() / "registry.db"; }

  TempDir dir_;
  std::filesystem::path before_ = dir_.path() / "before";
};

TEST_F(RegistryUpgradeTest, ARegistryOfSchemaOneGainsTokensNotBeforeWithItsClientsKept) {
  // A data directory from before 0002: its clients keep working, never
  // blocked; from before 0004: created by nobody named, never used.
  migrateUpTo(1);
  FakeClock clock;
  const SecretHasher hasher(std::string(32, 'p'));
  const std::string clientId = std::string(kClientIdPrefix) + std::string(kClientIdRandomLength, 'A');
  const std::string secret(43, 's');
  std::string digestHex;
  for (const unsigned char byte : hasher.digest(secret)) {
    constexpr const char* kHex = "0123456789abcdef";
    digestHex += kHex[byte >> 4];
    digestHex += kHex[byte & 0xF];
  }
  ASSERT_EQ(sql("INSERT INTO organisations (id, name, plan, subscription, created_at, updated_at)"
                " VALUES ('org_0000000000000001', 'Acme', 'pro', 'active', 1, 1)"),
            "");
  ASSERT_EQ(sql("INSERT INTO api_clients (id, organisation_id, name, scopes, state, secret_digest, created_at,"
                " updated_at) VALUES ('" +
                clientId + "', 'org_0000000000000001', 'ERP', 'write:codes', 'active', X'" + digestHex + "', 1, 1)"),
            "");

  SqlClientRegistry upgraded(RegistryDatabase::sqlite(database()), testing::sourceRegistryMigrations(), hasher,
                             clock.clock());
  const std::optional<ClientAuthRecord> record = upgraded.findClientForAuthentication(clientId);
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->tokensNotBefore, 0);
  EXPECT_EQ(record->secretDigest, hasher.digest(secret));
  EXPECT_EQ(upgraded.findClient(clientId), (ClientRecord{clientId,
                                                         "org_0000000000000001",
                                                         "ERP",
                                                         {"write:codes"},
                                                         ClientState::Active,
                                                         1,
                                                         "",
                                                         std::nullopt,
                                                         std::nullopt,
                                                         std::nullopt}));
  upgraded.setClientState(clientId, ClientState::Blocked);
  EXPECT_EQ(upgraded.findClientForAuthentication(clientId)->tokensNotBefore, testing::kTestEpoch + 1);
}

TEST_F(RegistryUpgradeTest, TheSpellingMigrationKeepsEveryRowUnderTheNewNames) {
  migrateUpTo(8);
  ASSERT_EQ(sql("INSERT INTO organisations (id, name, plan, subscription, created_at, updated_at)"
                " VALUES ('org_0000000000000001', 'Acme GmbH', 'pro', 'active', 5, 5)"),
            "");
  ASSERT_EQ(sql("INSERT INTO api_clients (id, organisation_id, name, scopes, state, secret_digest, created_at,"
                " updated_at) VALUES ('svc_client_000000000000000000000001', 'org_0000000000000001', 'ERP',"
                " 'write:codes', 'active', zeroblob(32), 6, 6)"),
            "");
  ASSERT_EQ(sql("INSERT INTO audit_log (at, actor, action, target, organisation_id, address, result, detail)"
                " VALUES (7, 'admin', 'client.create', 'svc_client_000000000000000000000001',"
                " 'org_0000000000000001', 'local', 'success', '')"),
            "");
  ASSERT_EQ(sql("INSERT INTO client_usage_daily (client_id, organisation_id, day, tokens_issued)"
                " VALUES ('svc_client_000000000000000000000001', 'org_0000000000000001', '2026-11-27', 3)"),
            "");
  ASSERT_EQ(sql("INSERT INTO organisation_settings (organisation_id, require_totp, updated_at)"
                " VALUES ('org_0000000000000001', 1, 9)"),
            "");

  migrate(testing::sourceRegistryMigrations());

  EXPECT_EQ(rawColumn(database(), "SELECT id || '|' || name || '|' || plan FROM organizations"),
            "org_0000000000000001|Acme GmbH|pro");
  EXPECT_EQ(rawColumn(database(), "SELECT id || '|' || organization_id FROM api_clients"),
            "svc_client_000000000000000000000001|org_0000000000000001");
  EXPECT_EQ(rawColumn(database(), "SELECT id || '|' || action || '|' || organization_id FROM audit_log"),
            "1|client.create|org_0000000000000001");
  EXPECT_EQ(rawColumn(database(), "SELECT organization_id || '|' || tokens_issued FROM client_usage_daily"),
            "org_0000000000000001|3");
  EXPECT_EQ(rawColumn(database(), "SELECT organization_id || '|' || require_totp FROM organization_settings"),
            "org_0000000000000001|1");
  EXPECT_EQ(rawColumn(database(),
                      "SELECT count(*) FROM sqlite_schema WHERE lower(name) LIKE '%organis%'"
                      " OR lower(sql) LIKE '%organis%'"),
            "0");

  // The foreign keys follow the renamed table: a client of no organization is refused.
  EXPECT_EQ(sql("INSERT INTO api_clients (id, organization_id, name, scopes, state, secret_digest, created_at,"
                " updated_at) VALUES ('svc_client_000000000000000000000002', 'org_0000000000000009', 'CRM',"
                " 'write:codes', 'active', zeroblob(32), 8, 8)"),
            "FOREIGN KEY constraint failed");
  // The audit log stays append-only.
  EXPECT_EQ(sql("DELETE FROM audit_log"), "audit_log is append-only");
  // The standing counter still moves when an organization changes.
  const std::string version = rawColumn(database(), "SELECT version FROM client_standing_version");
  EXPECT_EQ(sql("UPDATE organizations SET plan = 'starter'"), "");
  EXPECT_EQ(rawColumn(database(), "SELECT version FROM client_standing_version"),
            std::to_string(std::stoll(version) + 1));
}

}  // namespace
}  // namespace codepayload::auth
