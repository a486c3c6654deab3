// Looks straight into a registry database (<data dir>/registry.db) with
// SQLite, beside the server and the admin tool: its journal mode, its
// integrity, whether every client row is complete, and a writer that holds the
// write lock for as long as a test wants.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace codepayload::robustness {

// "PRAGMA journal_mode" of the database ("wal", "delete", ...).
std::string journalMode(const std::filesystem::path& database);

// "PRAGMA integrity_check": "ok" for a sound database.
std::string integrityCheck(const std::filesystem::path& database);

// Client rows that are not complete: no organization, no scopes, or a
// non-deleted client without a 32-byte secret digest.
std::int64_t incompleteClients(const std::filesystem::path& database);

// Holds the database's write lock (BEGIN IMMEDIATE) until destroyed.
class RegistryWriteLock {
 public:
  explicit RegistryWriteLock(const std::filesystem::path& database);
  ~RegistryWriteLock();  // ROLLBACK and close

  RegistryWriteLock(const RegistryWriteLock&) = delete;
  RegistryWriteLock& operator=(const RegistryWriteLock&) = delete;

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace codepayload::robustness
