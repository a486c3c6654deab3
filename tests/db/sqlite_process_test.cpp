// SQLite's process-wide settings (db/sqlite_connection.h, configureProcess).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>

#include "db/sqlite_connection.h"

namespace codepayload::sqlite {
namespace {

// Each check runs in a child process of its own: the "threadsafe" death test
// style starts this binary again for the one test, so SQLite is new there, as
// in a starting server (a fork would inherit what earlier tests did).

TEST(SqliteProcess, MemoryStatisticsAreOffWhenConfiguredFirst) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        const bool configured = configureProcess();
        Connection connection(":memory:", Connection::Mode::ReadWriteCreate);
        execute(connection.handle(), "CREATE TABLE t (x TEXT); INSERT INTO t VALUES (hex(randomblob(4096)))",
                "filling");
        // With the statistics off SQLite counts no memory at all.
        std::exit(configured && sqlite3_memory_used() == 0 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(SqliteProcess, ASqliteAlreadyInUseKeepsItsSettingsAndSaysSo) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        sqlite3* other = nullptr;
        sqlite3_open(":memory:", &other);  // initialises SQLite with its defaults
        const bool configured = configureProcess();
        sqlite3_close(other);
        Connection connection(":memory:", Connection::Mode::ReadWriteCreate);
        execute(connection.handle(), "CREATE TABLE t (x TEXT); INSERT INTO t VALUES (hex(randomblob(4096)))",
                "filling");
        std::exit(!configured && sqlite3_memory_used() > 0 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace codepayload::sqlite
