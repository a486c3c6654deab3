// The registry's PostgreSQL schema (db/registry/postgresql) applied by the
// migration runner over Poco::Data's PostgreSQL connector, against a real
// scratch PostgreSQL 15: it is applied once and recorded, a re-run changes
// nothing, it has SQLite's final tables, columns, indexes and triggers, the
// standing-version counter moves as SQLite's does, the audit log is
// append-only, and two instances migrating at once apply it once.
#include <Poco/Data/PostgreSQL/Connector.h>
#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/Session.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "db/poco_migrations.h"
#include "tests/support/scratch_postgresql.h"
#include "tests/tools/test_files.h"

namespace codepayload {
namespace {

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;
using testing::ScratchPostgresql;

const std::filesystem::path kSqliteDir = std::filesystem::path(CODEPAYLOAD_TEST_SCHEMA_DIR) / "registry";
const std::filesystem::path kPostgresqlDir = kSqliteDir / "postgresql";
constexpr const char* kOrganization = "org_0123456789abcdef";
constexpr const char* kClient = "svc_client_0123456789abcdef01234567";

class PostgresqlRegistrySchemaTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    Poco::Data::PostgreSQL::Connector::registerConnector();
    try {
      server_ = std::make_unique<ScratchPostgresql>();
    } catch (const std::exception& error) {
      startError_ = error.what();
    }
  }
  static void TearDownTestSuite() { server_.reset(); }

  void SetUp() override {
    // Fails, never skips: CI installs PostgreSQL, and a missing server must
    // not turn these tests green.
    ASSERT_NE(server_, nullptr) << "cannot start a scratch PostgreSQL: " << startError_;
    static int databases = 0;
    database_ = "registry_" + std::to_string(++databases);
    server_->createDatabase(database_);
  }

  Poco::Data::Session open() const {
    return Poco::Data::Session(Poco::Data::PostgreSQL::Connector::KEY, server_->connectionString(database_));
  }

  static Poco::Int64 integer(Poco::Data::Session& session, const std::string& sql) {
    Poco::Int64 value = -1;
    session << sql, into(value), now;
    return value;
  }

  static std::vector<std::string> strings(Poco::Data::Session& session, const std::string& sql) {
    std::vector<std::string> values;
    session << sql, into(values), now;
    return values;
  }

  static std::string errorOf(Poco::Data::Session& session, const std::string& sql) {
    try {
      session << sql, now;
    } catch (const Poco::Exception& error) {
      return databaseMessageOf(error);
    }
    return "no error";
  }

  static inline std::unique_ptr<ScratchPostgresql> server_;
  static inline std::string startError_;
  std::string database_;
};

// "table.column" of every column, ordered by table and position.
constexpr const char* kPostgresqlColumns =
    "SELECT table_name || '.' || column_name FROM information_schema.columns"
    " WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'"
    " ORDER BY table_name, ordinal_position";
constexpr const char* kSqliteColumns =
    "SELECT m.name || '.' || p.name FROM sqlite_schema m, pragma_table_info(m.name) p"
    " WHERE m.type = 'table' AND m.name <> 'schema_migrations' ORDER BY m.name, p.cid";
// Named indexes only: both databases add their own for keys and UNIQUE.
constexpr const char* kPostgresqlIndexes =
    "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
    " AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_key' ORDER BY indexname";
constexpr const char* kSqliteIndexes =
    "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name";
constexpr const char* kPostgresqlTriggers =
    "SELECT t.tgname::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
    " JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE NOT t.tgisinternal AND n.nspname = current_schema() ORDER BY 1";
constexpr const char* kSqliteTriggers = "SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name";

std::vector<std::string> sqliteStrings(const std::string& sql) {
  static std::once_flag registered;
  std::call_once(registered, [] { Poco::Data::SQLite::Connector::registerConnector(); });
  Poco::Data::Session session(Poco::Data::SQLite::Connector::KEY, ":memory:");
  applyMigrations(session, kSqliteDir);
  std::vector<std::string> values;
  session << sql, into(values), now;
  return values;
}

TEST_F(PostgresqlRegistrySchemaTest, MigratesAnEmptyDatabaseAndRecordsIt) {
  Poco::Data::Session session = open();
  EXPECT_EQ(schemaVersion(session), 0);
  applyMigrations(session, kPostgresqlDir);
  EXPECT_EQ(schemaVersion(session), 5);
  EXPECT_EQ(strings(session, "SELECT version || ' ' || name FROM schema_migrations ORDER BY version"),
            (std::vector<std::string>{"1 0001_registry.sql", "2 0002_installation_secrets.sql",
                                      "3 0003_published_releases.sql", "4 0004_client_replaces.sql",
                                      "5 0005_password_resets.sql"}));
  EXPECT_EQ(integer(session, "SELECT version FROM client_standing_version WHERE id = 1"), 0);
}

TEST_F(PostgresqlRegistrySchemaTest, HasSqlitesFinalTablesColumnsIndexesAndTriggers) {
  Poco::Data::Session session = open();
  applyMigrations(session, kPostgresqlDir);
  // SQLite's rowid, implicit there, is a column of two tables here; the
  // sealed secrets are files beside an SQLite registry, whose one instance
  // reads its rule database from its data directory, not from the registry.
  std::vector<std::string> columns = strings(session, kPostgresqlColumns);
  EXPECT_EQ(std::erase_if(columns, [](const std::string& column) { return column.ends_with(".rowid"); }), 2u);
  EXPECT_EQ(std::erase_if(columns,
                          [](const std::string& column) {
                            return column.starts_with("installation_secrets.") || column.starts_with("signing_keys.") ||
                                   column.starts_with("published_releases.");
                          }),
            14u);
  EXPECT_EQ(columns, sqliteStrings(kSqliteColumns));
  EXPECT_EQ(strings(session, kPostgresqlIndexes), sqliteStrings(kSqliteIndexes));
  // TRUNCATE is PostgreSQL's alone.
  std::vector<std::string> triggers = sqliteStrings(kSqliteTriggers);
  triggers.push_back("audit_log_no_truncate");
  std::sort(triggers.begin(), triggers.end());
  EXPECT_EQ(strings(session, kPostgresqlTriggers), triggers);
}

TEST_F(PostgresqlRegistrySchemaTest, ARerunChangesNothing) {
  Poco::Data::Session session = open();
  applyMigrations(session, kPostgresqlDir);
  const auto recorded = strings(session, "SELECT version || ' ' || name || ' ' || applied_at FROM schema_migrations");
  const auto columns = strings(session, kPostgresqlColumns);
  applyMigrations(session, kPostgresqlDir);
  Poco::Data::Session other = open();
  applyMigrations(other, kPostgresqlDir);
  EXPECT_EQ(strings(session, "SELECT version || ' ' || name || ' ' || applied_at FROM schema_migrations"), recorded);
  EXPECT_EQ(strings(session, kPostgresqlColumns), columns);
  EXPECT_EQ(integer(session, "SELECT count(*) FROM client_standing_version"), 1);
}

TEST_F(PostgresqlRegistrySchemaTest, StandingVersionMovesOnceOnAStateChangeAndNotOnOtherColumns) {
  Poco::Data::Session session = open();
  applyMigrations(session, kPostgresqlDir);
  const auto version = [&session] { return integer(session, "SELECT version FROM client_standing_version"); };
  const std::string org = kOrganization;
  const std::string client = kClient;
  session << "INSERT INTO organizations (id, name, plan, subscription, created_at, updated_at) VALUES ('" + org +
                 "', 'Acme', 'pro', 'active', 1, 1)",
      now;
  EXPECT_EQ(version(), 0) << "a new organization has no clients yet";
  session << "INSERT INTO api_clients (id, organization_id, name, scopes, state, secret_digest, created_at, updated_at)"
             " VALUES ('" +
                 client + "', '" + org + "', 'c', 'codes:write', 'active', decode(repeat('ab', 32), 'hex'), 1, 1)",
      now;
  EXPECT_EQ(version(), 1);
  session << "UPDATE api_clients SET name = 'renamed', last_used_at = 120, created_by = 'x', updated_at = 2", now;
  EXPECT_EQ(version(), 1) << "name, last_used_at, created_by, updated_at are not the client's standing";
  session << "UPDATE api_clients SET state = 'blocked', tokens_not_before = 3", now;
  EXPECT_EQ(version(), 2) << "one change of one row moves the counter by exactly one";
  session << "UPDATE api_clients SET state = 'blocked'", now;
  EXPECT_EQ(version(), 2) << "a state written unchanged is no change";
  session << "UPDATE api_clients SET scopes = 'codes:read'", now;
  EXPECT_EQ(version(), 3);
  session << "UPDATE organizations SET name = 'Acme 2', updated_at = 5", now;
  EXPECT_EQ(version(), 3);
  session << "UPDATE organizations SET subscription = 'inactive'", now;
  EXPECT_EQ(version(), 4);
  session << "INSERT INTO client_usage_daily (client_id, organization_id, day, tokens_issued) VALUES ('" + client +
                 "', '" + org + "', '2026-11-27', 5)",
      now;
  EXPECT_EQ(version(), 4) << "usage is not standing";
  session << "UPDATE api_clients SET state = 'deleted', secret_digest = NULL", now;
  EXPECT_EQ(version(), 5);
}

TEST_F(PostgresqlRegistrySchemaTest, TheAuditLogRefusesUpdateDeleteAndTruncate) {
  Poco::Data::Session session = open();
  applyMigrations(session, kPostgresqlDir);
  session << "INSERT INTO audit_log (at, actor, action, target, organization_id, address, result, detail)"
             " VALUES (1, 'cli:root', 'client.create', 'x', NULL, 'local', 'success', '')",
      now;
  EXPECT_NE(errorOf(session, "UPDATE audit_log SET detail = 'changed'").find("audit_log is append-only"),
            std::string::npos);
  EXPECT_NE(errorOf(session, "DELETE FROM audit_log").find("audit_log is append-only"), std::string::npos);
  EXPECT_NE(errorOf(session, "TRUNCATE audit_log").find("audit_log is append-only"), std::string::npos);
  EXPECT_EQ(strings(session, "SELECT id || ' ' || detail FROM audit_log"), std::vector<std::string>{"1 "});
}

TEST_F(PostgresqlRegistrySchemaTest, AFailingMigrationLeavesNothingAndTheSessionUsable) {
  testing::TempDir folder;
  testing::writeFile(folder.path() / "0001_first.sql", "CREATE TABLE first (x BIGINT);\n");
  testing::writeFile(folder.path() / "0002_broken.sql",
                     "CREATE TABLE second (x BIGINT);\nCREATE TABLE first (y BIGINT);\n");
  Poco::Data::Session session = open();
  try {
    applyMigrations(session, folder.path());
    ADD_FAILURE() << "a broken migration was applied";
  } catch (const DbError& error) {
    EXPECT_NE(std::string(error.what()).find("applying migration 0002_broken.sql: relation \"first\" already exists"),
              std::string::npos)
        << error.what();
  }
  EXPECT_EQ(schemaVersion(session), 1);
  EXPECT_EQ(integer(session, "SELECT count(*) FROM pg_tables WHERE tablename = 'second'"), 0);
}

TEST_F(PostgresqlRegistrySchemaTest, TwoMigratorsAtOnceBothSucceedAndApplyItOnce) {
  constexpr int kMigrators = 2;
  std::vector<Poco::Data::Session> sessions;
  for (int i = 0; i < kMigrators; ++i) sessions.push_back(open());
  std::atomic<int> ready = 0;
  std::vector<std::string> errors(kMigrators);
  std::vector<std::thread> threads;
  for (int i = 0; i < kMigrators; ++i) {
    threads.emplace_back([&, i] {
      ++ready;
      while (ready.load() < kMigrators) std::this_thread::yield();
      try {
        applyMigrations(sessions[static_cast<std::size_t>(i)], kPostgresqlDir);
      } catch (const std::exception& error) {
        errors[static_cast<std::size_t>(i)] = error.what();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(errors, std::vector<std::string>(kMigrators));
  Poco::Data::Session session = open();
  EXPECT_EQ(integer(session, "SELECT count(*) FROM schema_migrations"), 5);  // each file once
  // 0001's INSERT ran once.
  EXPECT_EQ(integer(session, "SELECT count(*) FROM client_standing_version"), 1);
}

}  // namespace
}  // namespace codepayload
