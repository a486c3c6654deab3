// A scratch folder for the accounts tests, and the registry migrations of
// this source tree (the database itself: tests/support/scratch_registry.h).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "auth/secret_hasher.h"
#include "auth/sql_client_registry.h"

namespace codepayload::accounts::testing {

inline std::filesystem::path sourceRegistryMigrations() {
  return std::filesystem::path(CODEPAYLOAD_TEST_SOURCE_DB_DIR) / "registry";
}

class ScratchDir {
 public:
  ScratchDir() {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("codepayload-accounts-" + std::to_string(::getpid()) + "-" + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace codepayload::accounts::testing
