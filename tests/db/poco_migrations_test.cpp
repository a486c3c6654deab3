// The migration runner on a Poco::Data::Session (db/poco_migrations.h): the
// same behaviour as on a raw sqlite3 connection (migrations_test.cpp), and a
// database migrated by one form is current for the other.
#include "db/poco_migrations.h"

#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/Session.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "db/sqlite_connection.h"
#include "tests/tools/test_files.h"

namespace codepayload {
namespace {

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;
using testing::readFile;
using testing::TempDir;
using testing::writeFile;

Poco::Data::Session openSession(const std::filesystem::path& file) {
  static std::once_flag registered;
  std::call_once(registered, [] { Poco::Data::SQLite::Connector::registerConnector(); });
  return Poco::Data::Session(Poco::Data::SQLite::Connector::KEY, file.string());
}

std::vector<std::string> tables(Poco::Data::Session& session) {
  std::vector<std::string> names;
  session << "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name", into(names), now;
  return names;
}

std::vector<std::string> recordedNames(Poco::Data::Session& session) {
  std::vector<std::string> names;
  session << "SELECT name FROM schema_migrations ORDER BY version", into(names), now;
  return names;
}

std::string errorOf(Poco::Data::Session& session, const std::filesystem::path& dir) {
  try {
    applyMigrations(session, dir);
  } catch (const DbError& error) {
    return error.what();
  }
  return "no error";
}

class PocoMigrationsTest : public ::testing::Test {
 protected:
  PocoMigrationsTest() {
    std::filesystem::create_directory(folder());
    // Several statements and comments in one file, a comment last.
    writeFile(folder() / "0001_first.sql",
              "-- the first table\nCREATE TABLE first (x INTEGER NOT NULL) STRICT;\n"
              "CREATE INDEX first_by_x ON first (x);\n-- end\n");
    writeFile(folder() / "0002_second.sql",
              "CREATE TABLE second (y TEXT NOT NULL) STRICT;\nINSERT INTO second VALUES ('a');\n");
  }

  std::filesystem::path folder() const { return temp_ / "migrations"; }
  std::filesystem::path dbPath() const { return temp_ / "test.db"; }

  TempDir temp_;
};

TEST_F(PocoMigrationsTest, FreshDatabaseGetsEveryMigrationInOrder) {
  Poco::Data::Session session = openSession(dbPath());
  EXPECT_EQ(schemaVersion(session), 0);
  applyMigrations(session, folder());
  EXPECT_EQ(schemaVersion(session), 2);
  EXPECT_EQ(recordedNames(session), (std::vector<std::string>{"0001_first.sql", "0002_second.sql"}));
  EXPECT_EQ(tables(session), (std::vector<std::string>{"first", "schema_migrations", "second"}));
  std::vector<std::string> indexes;
  session << "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'first'", into(indexes), now;
  EXPECT_EQ(indexes, (std::vector<std::string>{"first_by_x"}));
  Poco::Int64 rows = 0;
  session << "SELECT count(*) FROM second", into(rows), now;
  EXPECT_EQ(rows, 1);
}

TEST_F(PocoMigrationsTest, AppliedAtIsUtcToTheSecond) {
  Poco::Data::Session session = openSession(dbPath());
  applyMigrations(session, folder());
  std::vector<std::string> appliedAt;
  session << "SELECT applied_at FROM schema_migrations ORDER BY version", into(appliedAt), now;
  ASSERT_EQ(appliedAt.size(), 2u);
  for (const std::string& text : appliedAt) {
    // Written by the runner, read back by SQLite's own calendar.
    std::string normalized;
    session << "SELECT strftime('%Y-%m-%dT%H:%M:%SZ', ?)", Poco::Data::Keywords::bind(text), into(normalized), now;
    EXPECT_EQ(normalized, text);
    Poco::Int64 age = -1;
    session << "SELECT unixepoch('now') - unixepoch(?)", Poco::Data::Keywords::bind(text), into(age), now;
    EXPECT_GE(age, 0);
    EXPECT_LE(age, 60);
  }
}

TEST_F(PocoMigrationsTest, ReRunIsANoOp) {
  {
    Poco::Data::Session session = openSession(dbPath());
    applyMigrations(session, folder());
  }
  const std::string before = readFile(dbPath());
  {
    Poco::Data::Session session = openSession(dbPath());
    applyMigrations(session, folder());
    EXPECT_EQ(schemaVersion(session), 2);
  }
  EXPECT_EQ(readFile(dbPath()), before);
}

TEST_F(PocoMigrationsTest, AppliesOnlyWhatIsNew) {
  std::filesystem::rename(folder() / "0002_second.sql", temp_ / "0002_second.sql");
  Poco::Data::Session session = openSession(dbPath());
  applyMigrations(session, folder());
  EXPECT_EQ(schemaVersion(session), 1);
  std::filesystem::rename(temp_ / "0002_second.sql", folder() / "0002_second.sql");
  applyMigrations(session, folder());
  EXPECT_EQ(schemaVersion(session), 2);
}

TEST_F(PocoMigrationsTest, DatabaseNewerThanTheFolderIsRefusedAndUntouched) {
  {
    Poco::Data::Session session = openSession(dbPath());
    applyMigrations(session, folder());
  }
  const std::string before = readFile(dbPath());
  std::filesystem::remove(folder() / "0002_second.sql");
  {
    Poco::Data::Session session = openSession(dbPath());
    EXPECT_EQ(errorOf(session, folder()),
              "database schema version 2 (0002_second.sql) is newer than the migrations in " + folder().string() +
                  " (up to 1); refusing to use it");
  }
  EXPECT_EQ(readFile(dbPath()), before);
}

TEST_F(PocoMigrationsTest, RenamedMigrationIsRefused) {
  Poco::Data::Session session = openSession(dbPath());
  applyMigrations(session, folder());
  std::filesystem::rename(folder() / "0002_second.sql", folder() / "0002_other.sql");
  EXPECT_EQ(errorOf(session, folder()), "database recorded migration 2 as \"0002_second.sql\" but " +
                                            folder().string() + " has \"0002_other.sql\"");
}

TEST_F(PocoMigrationsTest, FailingMigrationLeavesNothingOfItself) {
  writeFile(folder() / "0003_broken.sql", "CREATE TABLE third (z INTEGER) STRICT;\nINSERT INTO missing VALUES (1);\n");
  Poco::Data::Session session = openSession(dbPath());
  EXPECT_EQ(errorOf(session, folder()), "applying migration 0003_broken.sql: no such table: missing");
  EXPECT_EQ(schemaVersion(session), 2);
  EXPECT_EQ(tables(session), (std::vector<std::string>{"first", "schema_migrations", "second"}));
  // The session is usable afterwards: no transaction was left open.
  session << "INSERT INTO second VALUES ('b')", now;
  Poco::Int64 rows = 0;
  session << "SELECT count(*) FROM second", into(rows), now;
  EXPECT_EQ(rows, 2);
}

TEST_F(PocoMigrationsTest, BothFormsShareTheRecord) {
  std::filesystem::rename(folder() / "0002_second.sql", temp_ / "0002_second.sql");
  {
    sqlite::Connection connection(dbPath(), sqlite::Connection::Mode::ReadWriteCreate);
    applyMigrations(connection.handle(), folder());
  }
  std::filesystem::rename(temp_ / "0002_second.sql", folder() / "0002_second.sql");
  {
    Poco::Data::Session session = openSession(dbPath());
    EXPECT_EQ(schemaVersion(session), 1);
    applyMigrations(session, folder());  // would fail on re-creating "first"
    EXPECT_EQ(recordedNames(session), (std::vector<std::string>{"0001_first.sql", "0002_second.sql"}));
  }
  const std::string before = readFile(dbPath());
  {
    sqlite::Connection connection(dbPath(), sqlite::Connection::Mode::ReadWriteCreate);
    EXPECT_EQ(schemaVersion(connection.handle()), 2);
    applyMigrations(connection.handle(), folder());
  }
  EXPECT_EQ(readFile(dbPath()), before);
}

TEST(PocoMigrationDialectTest, SqliteSessionsSpeakSqlite) {
  TempDir temp;
  const Poco::Data::Session session = openSession(temp / "test.db");
  EXPECT_EQ(&migrationDialectOf(session), &kSqliteMigrationDialect);
  EXPECT_STREQ(kSqliteMigrationDialect.beginWrite, "BEGIN IMMEDIATE");
}

}  // namespace
}  // namespace codepayload
