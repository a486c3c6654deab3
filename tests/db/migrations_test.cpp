#include "db/migrations.h"

#include <gtest/gtest.h>

#include <utility>

#include "db/sqlite_connection.h"
#include "tests/tools/test_files.h"

namespace codepayload {
namespace {

using testing::readFile;
using testing::TempDir;
using testing::writeFile;

std::vector<std::pair<std::int64_t, std::string>> recorded(sqlite3* db) {
  std::vector<std::pair<std::int64_t, std::string>> rows;
  sqlite::Statement query(db, "SELECT version, name FROM schema_migrations ORDER BY version");
  while (query.step()) rows.emplace_back(query.integer(0), std::string(query.text(1)));
  return rows;
}

std::vector<std::string> tables(sqlite3* db) {
  std::vector<std::string> names;
  sqlite::Statement query(db, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name");
  while (query.step()) names.emplace_back(query.text(0));
  return names;
}

std::string errorOf(sqlite3* db, const std::filesystem::path& dir) {
  try {
    applyMigrations(db, dir);
  } catch (const DbError& error) {
    return error.what();
  }
  return "no error";
}

class MigrationsTest : public ::testing::Test {
 protected:
  MigrationsTest() {
    std::filesystem::create_directory(folder());
    writeFile(folder() / "0001_first.sql", "CREATE TABLE first (x INTEGER NOT NULL) STRICT;\n");
    writeFile(folder() / "0002_second.sql",
              "CREATE TABLE second (y TEXT NOT NULL) STRICT;\nINSERT INTO second VALUES ('a');\n");
  }

  std::filesystem::path folder() const { return temp_ / "migrations"; }
  std::filesystem::path dbPath() const { return temp_ / "test.db"; }

  TempDir temp_;
};

TEST_F(MigrationsTest, FreshDatabaseGetsEveryMigrationInOrder) {
  sqlite::Connection connection(dbPath(), sqlite::Connection::Mode::ReadWriteCreate);
  EXPECT_EQ(schemaVersion(connection.handle()), 0);
  applyMigrations(connection.handle(), folder());
  EXPECT_EQ(schemaVersion(connection.handle()), 2);
  EXPECT_EQ(recorded(connection.handle()),
            (std::vector<std::pair<std::int64_t, std::string>>{{1, "0001_first.sql"}, {2, "0002_second.sql"}}));
  EXPECT_EQ(tables(connection.handle()), (std::vector<std::string>{"first", "schema_migrations", "second"}));
}

TEST_F(MigrationsTest, ReRunIsANoOp) {
  {
    sqlite::Connection connection(dbPath(), sqlite::Connection::Mode::ReadWriteCreate);
    applyMigrations(connection.handle(), folder());
  }
  const std::string before = readFile(dbPath());
  {
    // Re-running a CREATE TABLE would fail: a no-op run does not touch it.
    sqlite::Connection connection(dbPath(), sqlite::Connection::Mode::ReadWriteCreate);
    applyMigrations(connection.handle(), folder());
    EXPECT_EQ(schemaVersion(connection.handle()), 2);
  }
  EXPECT_EQ(readFile(dbPath()), before);
}

TEST_F(MigrationsTest, AppliesOnlyWhatIsNew) {
  std::filesystem::rename(folder() / "0002_second.sql", temp_ / "0002_second.sql");
  sqlite::Connection connection(dbPath(), sqlite::Connection::Mode::ReadWriteCreate);
  applyMigrations(connection.handle(), folder());
  EXPECT_EQ(schemaVersion(connection.handle()), 1);
  std::filesystem::rename(temp_ / "0002_second.sql", folder() / "0002_second.sql");
  applyMigrations(connection.handle(), folder());
  EXPECT_EQ(schemaVersion(connection.handle()), 2);
  sqlite::Statement rows(connection.handle(), "SELECT count(*) FROM second");
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(rows.integer(0), 1);
}

TEST_F(MigrationsTest, DatabaseNewerThanTheFolderIsRefusedAndUntouched) {
  {
    sqlite::Connection connection(dbPath(), sqlite::Connection::Mode::ReadWriteCreate);
    applyMigrations(connection.handle(), folder());
  }
  const std::string before = readFile(dbPath());
  std::filesystem::remove(folder() / "0002_second.sql");
  {
    sqlite::Connection connection(dbPath(), sqlite::Connection::Mode::ReadWriteCreate);
    EXPECT_EQ(errorOf(connection.handle(), folder()),
              "database schema version 2 (0002_second.sql) is newer than the migrations in " + folder().string() +
                  " (up to 1); refusing to use it");
  }
  EXPECT_EQ(readFile(dbPath()), before);
}

TEST_F(MigrationsTest, RenamedMigrationIsRefused) {
  sqlite::Connection connection(dbPath(), sqlite::Connection::Mode::ReadWriteCreate);
  applyMigrations(connection.handle(), folder());
  std::filesystem::rename(folder() / "0002_second.sql", folder() / "0002_other.sql");
  EXPECT_EQ(errorOf(connection.handle(), folder()), "database recorded migration 2 as \"0002_second.sql\" but " +
                                                        folder().string() + " has \"0002_other.sql\"");
}

TEST_F(MigrationsTest, FailingMigrationLeavesNothingOfItself) {
  writeFile(folder() / "0003_broken.sql", "CREATE TABLE third (z INTEGER) STRICT;\nINSERT INTO missing VALUES (1);\n");
  sqlite::Connection connection(dbPath(), sqlite::Connection::Mode::ReadWriteCreate);
  EXPECT_EQ(errorOf(connection.handle(), folder()), "applying migration 0003_broken.sql: no such table: missing");
  EXPECT_EQ(schemaVersion(connection.handle()), 2);
  EXPECT_EQ(tables(connection.handle()), (std::vector<std::string>{"first", "schema_migrations", "second"}));
}

TEST_F(MigrationsTest, OtherFilesAreIgnored) {
  writeFile(folder() / "README.md", "notes");
  EXPECT_EQ(listMigrations(folder()).size(), 2u);
  EXPECT_EQ(listMigrations(folder())[1], (Migration{2, "0002_second.sql", folder() / "0002_second.sql"}));
}

struct FolderErrorRow {
  const char* name;
  std::vector<std::string> files;
  std::string expectedAfterFolder;  // the message after "migration folder <dir>" or the file's path
};

TEST(MigrationFolderTest, BadFoldersAreRefused) {
  const std::vector<FolderErrorRow> rows = {
      {"gap", {"0001_a.sql", "0003_c.sql"}, ": no file numbered 2"},
      {"duplicate", {"0001_a.sql", "0001_b.sql"}, ": two files numbered 1 (0001_a.sql, 0001_b.sql)"},
      {"starts at 2", {"0002_b.sql"}, ": no file numbered 1"},
      {"empty", {}, " has no NNNN_<name>.sql files"},
  };
  for (const FolderErrorRow& row : rows) {
    SCOPED_TRACE(row.name);
    TempDir temp;
    for (const std::string& file : row.files) writeFile(temp / file, "SELECT 1;");
    try {
      listMigrations(temp.path());
      ADD_FAILURE() << "no error";
    } catch (const DbError& error) {
      EXPECT_EQ(std::string(error.what()), "migration folder " + temp.path().string() + row.expectedAfterFolder);
    }
  }
}

TEST(MigrationFolderTest, BadFileNamesAreRefused) {
  for (const char* name : {"1_a.sql", "0001-a.sql", "0001_A.sql", "0000_zero.sql", "0001_.sql", "abcd_x.sql"}) {
    SCOPED_TRACE(name);
    TempDir temp;
    writeFile(temp / name, "SELECT 1;");
    try {
      listMigrations(temp.path());
      ADD_FAILURE() << "no error";
    } catch (const DbError& error) {
      EXPECT_EQ(std::string(error.what()),
                "migration file " + (temp / name).string() + " is not named NNNN_<name>.sql (NNNN from 0001)");
    }
  }
}

TEST(MigrationFolderTest, MissingFolderIsRefused) {
  TempDir temp;
  try {
    listMigrations(temp / "absent");
    ADD_FAILURE() << "no error";
  } catch (const DbError& error) {
    EXPECT_EQ(std::string(error.what()), "migration folder " + (temp / "absent").string() + " does not exist");
  }
}

}  // namespace
}  // namespace codepayload
