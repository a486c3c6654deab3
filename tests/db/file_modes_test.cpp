// db/file_modes: the umask every binary sets, the warning for a data directory
// others can enter, and tightening what an older install left readable —
// including SQLite's -wal and -shm, which take the database file's mode
// whatever the umask.
#include "db/file_modes.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <ios>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/sqlite_connection.h"
#include "tests/tools/test_files.h"

namespace codepayload::filemodes {
namespace {

using codepayload::testing::fileMode;

using codepayload::testing::listFolder;
using codepayload::testing::readFile;
using codepayload::testing::ScopedUmask;
using codepayload::testing::TempDir;
using codepayload::testing::writeFile;

TEST(FileModes, RestrictNewFilesToOwnerSetsTheUmaskTo077) {
  const ScopedUmask restore(022);
  restrictNewFilesToOwner();
  EXPECT_EQ(::umask(022), 077u);
  // What the binaries get from it: a file and a folder created the usual way.
  TempDir temp;
  restrictNewFilesToOwner();
  writeFile(temp / "file", "x");
  std::filesystem::create_directories(temp / "folder");
  EXPECT_EQ(fileMode(temp / "file"), 0600u);
  EXPECT_EQ(fileMode(temp / "folder"), 0700u);
}

TEST(FileModes, ADirectoryOnlyItsOwnerCanEnterGivesNoWarning) {
  TempDir temp;
  ASSERT_EQ(::chmod(temp.path().c_str(), 0700), 0);
  EXPECT_EQ(sharedDirectoryWarning(temp.path()), std::nullopt);
  EXPECT_EQ(sharedDirectoryWarning(temp / "missing"), std::nullopt);
}

TEST(FileModes, ADirectoryGroupOrOthersCanEnterIsNamedWithItsModeAndTheFix) {
  for (const mode_t mode : {0755u, 0750u, 0711u, 0701u, 0770u, 0777u, 01777u}) {
    TempDir temp;
    ASSERT_EQ(::chmod(temp.path().c_str(), mode), 0);
    char octal[8];
    std::snprintf(octal, sizeof octal, "%04o", mode);
    EXPECT_EQ(sharedDirectoryWarning(temp.path()),
              "the data directory " + temp.path().string() + " has mode " + octal +
                  ": group or others can enter or list it (the files in it are kept 0600); run chmod 700 " +
                  temp.path().string() + " unless a group shares it on purpose")
        << octal;
  }
}

TEST(FileModes, RestrictToOwnerTakesGroupAndOtherBitsAway) {
  for (const auto& [before, after] : std::vector<std::pair<mode_t, mode_t>>{
           {0644, 0600}, {0640, 0600}, {0666, 0600}, {0604, 0600}, {0755, 0700}, {0600, 0600}, {0400, 0400}}) {
    TempDir temp;
    writeFile(temp / "file", "content");
    ASSERT_EQ(::chmod((temp / "file").c_str(), before), 0);
    restrictToOwner(temp / "file");
    EXPECT_EQ(fileMode(temp / "file"), after) << std::oct << before;
    EXPECT_EQ(readFile(temp / "file"), "content");
  }
}

TEST(FileModes, RestrictToOwnerLeavesAMissingFileMissing) {
  TempDir temp;
  restrictToOwner(temp / "missing");
  EXPECT_EQ(listFolder(temp.path()), std::set<std::string>{});
}

TEST(FileModes, RestrictToOwnerReportsAFileItCannotReach) {
  TempDir temp;
  writeFile(temp / "plain", "not a folder");
  try {
    restrictToOwner(temp / "plain" / "file");
    ADD_FAILURE() << "no error";
  } catch (const FileModeError& error) {
    EXPECT_EQ(std::string(error.what()),
              "cannot read the mode of " + (temp / "plain" / "file").string() + ": Not a directory");
  }
}

TEST(FileModes, RestrictDatabaseToOwnerCoversTheWalShmAndJournalFiles) {
  TempDir temp;
  for (const char* name : {"registry.db", "registry.db-wal", "registry.db-shm", "registry.db-journal", "other"}) {
    writeFile(temp / name, "x");
    ASSERT_EQ(::chmod((temp / name).c_str(), 0644), 0);
  }
  restrictDatabaseToOwner(temp / "registry.db");
  for (const char* name : {"registry.db", "registry.db-wal", "registry.db-shm", "registry.db-journal"}) {
    EXPECT_EQ(fileMode(temp / name), 0600u) << name;
  }
  EXPECT_EQ(fileMode(temp / "other"), 0644u);
}

// Why an old 0644 database must be tightened, not only the umask set: SQLite
// gives the -wal and -shm files the database file's mode.
TEST(FileModes, SqliteGivesWalAndShmTheDatabaseModeWhateverTheUmask) {
  const ScopedUmask restrictive(077);
  TempDir temp;
  writeFile(temp / "old.db", "");
  ASSERT_EQ(::chmod((temp / "old.db").c_str(), 0644), 0);
  {
    sqlite::Connection connection(temp / "old.db", sqlite::Connection::Mode::ReadWriteCreate);
    sqlite::execute(connection.handle(), "PRAGMA journal_mode = WAL; CREATE TABLE t (a)", "writing");
    EXPECT_EQ(fileMode(temp / "old.db-wal"), 0644u);
    EXPECT_EQ(fileMode(temp / "old.db-shm"), 0644u);
  }
  const ScopedUmask permissive(0);
  prepareOwnerOnlyDatabase(temp / "new.db");
  sqlite::Connection connection(temp / "new.db", sqlite::Connection::Mode::ReadWriteCreate);
  sqlite::execute(connection.handle(), "PRAGMA journal_mode = WAL; CREATE TABLE t (a)", "writing");
  EXPECT_EQ(fileMode(temp / "new.db"), 0600u);
  EXPECT_EQ(fileMode(temp / "new.db-wal"), 0600u);
  EXPECT_EQ(fileMode(temp / "new.db-shm"), 0600u);
}

TEST(FileModes, PrepareOwnerOnlyDatabaseCreatesAnEmptyFileOrTightensTheOldOne) {
  const ScopedUmask permissive(0);
  TempDir temp;
  prepareOwnerOnlyDatabase(temp / "new.db");
  EXPECT_EQ(fileMode(temp / "new.db"), 0600u);
  EXPECT_EQ(readFile(temp / "new.db"), "");

  writeFile(temp / "old.db", "old content");
  writeFile(temp / "old.db-wal", "wal");
  ASSERT_EQ(::chmod((temp / "old.db").c_str(), 0644), 0);
  ASSERT_EQ(::chmod((temp / "old.db-wal").c_str(), 0644), 0);
  prepareOwnerOnlyDatabase(temp / "old.db");
  EXPECT_EQ(fileMode(temp / "old.db"), 0600u);
  EXPECT_EQ(fileMode(temp / "old.db-wal"), 0600u);
  EXPECT_EQ(readFile(temp / "old.db"), "old content");
  EXPECT_EQ(listFolder(temp.path()), (std::set<std::string>{"new.db", "old.db", "old.db-wal"}));
}

TEST(FileModes, PrepareOwnerOnlyDatabaseReportsAMissingFolder) {
  TempDir temp;
  try {
    prepareOwnerOnlyDatabase(temp / "missing" / "registry.db");
    ADD_FAILURE() << "no error";
  } catch (const FileModeError& error) {
    EXPECT_EQ(std::string(error.what()),
              "cannot create " + (temp / "missing" / "registry.db").string() + ": No such file or directory");
  }
}

}  // namespace
}  // namespace codepayload::filemodes
