// A scratch registry database for the accounts tests: a fresh folder with
// registry.db migrated from this source tree's db/registry, an organization
// to put users in (through auth::SqliteClientRegistry, as the admin CLI makes
// one), and raw SQL for what the stores must not allow.
#pragma once

#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "auth/secret_hasher.h"
#include "auth/sqlite_client_registry.h"

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

// Runs `sql` on its own connection; "" on success, else SQLite's message.
inline std::string rawSql(const std::filesystem::path& database, const std::string& sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(database.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return "cannot open";
  }
  char* message = nullptr;
  std::string result;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) result = message ? message : "error";
  sqlite3_free(message);
  sqlite3_close(db);
  return result;
}

// The first column of every row of `sql`, joined with '|'.
inline std::string rawColumn(const std::filesystem::path& database, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string joined;
  if (sqlite3_open_v2(database.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK) {
      while (sqlite3_step(statement) == SQLITE_ROW) {
        if (!joined.empty()) joined.push_back('|');
        const unsigned char* text = sqlite3_column_text(statement, 0);
        joined += text ? reinterpret_cast<const char*>(text) : "NULL";
      }
    }
    sqlite3_finalize(statement);
  }
  sqlite3_close(db);
  return joined;
}

}  // namespace codepayload::accounts::testing
