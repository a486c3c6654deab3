#include "server/data_dir_lock.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <string>

namespace codepayload::server {
namespace {

class DataDirLock : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() / ("codepayload-lock-" + std::to_string(::getpid()));
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }
  std::filesystem::path directory_;
};

TEST_F(DataDirLock, WritesThePidIntoAnOwnerOnlyFile) {
  const DataDirectoryLock lock(directory_);
  std::string pid;
  std::ifstream(directory_ / "server.lock") >> pid;
  EXPECT_EQ(pid, std::to_string(::getpid()));
  struct stat status {};
  ASSERT_EQ(::stat((directory_ / "server.lock").c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u);
}

TEST_F(DataDirLock, RefusesASecondHolderNamingThePid) {
  const DataDirectoryLock first(directory_);
  try {
    const DataDirectoryLock second(directory_);
    ADD_FAILURE() << "locked twice";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "another codepayload-server (pid " + std::to_string(::getpid()) +
                                             ") is using the data directory " + directory_.string());
  }
}

TEST_F(DataDirLock, IsFreeAgainOnceReleased) {
  std::optional<DataDirectoryLock> first(std::in_place, directory_);
  first.reset();
  EXPECT_NO_THROW(DataDirectoryLock second(directory_));
}

TEST_F(DataDirLock, NamesAMissingDirectory) {
  EXPECT_THROW(DataDirectoryLock(directory_ / "missing"), std::runtime_error);
  try {
    const DataDirectoryLock lock(directory_ / "missing");
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "cannot open the lock file " +
                                             (directory_ / "missing" / "server.lock").string() +
                                             ": No such file or directory");
  }
}

}  // namespace
}  // namespace codepayload::server
