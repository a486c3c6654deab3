// Tests only: writes a client's row behind the registry's back, as a registry
// from before D-U9 may hold it (scopes the server does not know, or none), or
// as an operator editing the database by hand would. The registry never writes
// such rows itself, but what the service does with them stays tested.
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

#include "auth/secret_hasher.h"

namespace codepayload::auth::testing {

// Runs `sql` (an UPDATE of api_clients with ?1 for the value and ?2 for the
// client id) after `bindValue` bound ?1. Throws unless exactly one row changed.
inline void updateClientBehindTheRegistry(const std::filesystem::path& registryDatabase, const std::string& clientId,
                                          const char* sql, const std::function<int(sqlite3_stmt*)>& bindValue) {
  sqlite3* database = nullptr;
  sqlite3_stmt* statement = nullptr;
  bool stored = sqlite3_open_v2(registryDatabase.c_str(), &database, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK &&
                sqlite3_busy_timeout(database, 5000) == SQLITE_OK &&
                sqlite3_prepare_v2(database, sql, -1, &statement, nullptr) == SQLITE_OK &&
                bindValue(statement) == SQLITE_OK &&
                sqlite3_bind_text(statement, 2, clientId.c_str(), -1, SQLITE_TRANSIENT) == SQLITE_OK &&
                sqlite3_step(statement) == SQLITE_DONE && sqlite3_changes(database) == 1;
  sqlite3_finalize(statement);
  sqlite3_close(database);
  if (!stored) throw std::runtime_error("cannot update client " + clientId + " in " + registryDatabase.string());
}

// `scopes`: the column as stored, space-separated ("" for none).
inline void storeScopesBehindTheRegistry(const std::filesystem::path& registryDatabase, const std::string& clientId,
                                         const std::string& scopes) {
  updateClientBehindTheRegistry(registryDatabase, clientId, "UPDATE api_clients SET scopes = ?1 WHERE id = ?2",
                                [&scopes](sqlite3_stmt* statement) {
                                  return sqlite3_bind_text(statement, 1, scopes.c_str(), -1, SQLITE_TRANSIENT);
                                });
}

inline void storeSecretDigestBehindTheRegistry(const std::filesystem::path& registryDatabase,
                                               const std::string& clientId, const SecretDigest& digest) {
  updateClientBehindTheRegistry(registryDatabase, clientId, "UPDATE api_clients SET secret_digest = ?1 WHERE id = ?2",
                                [&digest](sqlite3_stmt* statement) {
                                  return sqlite3_bind_blob(statement, 1, digest.data(), static_cast<int>(digest.size()),
                                                           SQLITE_TRANSIENT);
                                });
}

}  // namespace codepayload::auth::testing
