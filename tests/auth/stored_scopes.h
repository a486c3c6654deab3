// Tests only: writes a client's scope column behind the registry's back, as a
// registry from before D-U9 may hold it (scopes the server does not know, or
// none). The registry no longer creates such clients, but their tokens must
// still be refused, so those refusals stay tested.
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace codepayload::auth::testing {

// `scopes`: the column as stored, space-separated ("" for none). Throws when
// the database cannot be written or holds no client `clientId`.
inline void storeScopesBehindTheRegistry(const std::filesystem::path& registryDatabase, const std::string& clientId,
                                         const std::string& scopes) {
  sqlite3* database = nullptr;
  sqlite3_stmt* statement = nullptr;
  bool stored = sqlite3_open_v2(registryDatabase.c_str(), &database, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK &&
                sqlite3_busy_timeout(database, 5000) == SQLITE_OK &&
                sqlite3_prepare_v2(database, "UPDATE api_clients SET scopes = ?1 WHERE id = ?2", -1, &statement,
                                   nullptr) == SQLITE_OK &&
                sqlite3_bind_text(statement, 1, scopes.c_str(), -1, SQLITE_TRANSIENT) == SQLITE_OK &&
                sqlite3_bind_text(statement, 2, clientId.c_str(), -1, SQLITE_TRANSIENT) == SQLITE_OK &&
                sqlite3_step(statement) == SQLITE_DONE && sqlite3_changes(database) == 1;
  sqlite3_finalize(statement);
  sqlite3_close(database);
  if (!stored) throw std::runtime_error("cannot store the scopes of " + clientId + " in " + registryDatabase.string());
}

}  // namespace codepayload::auth::testing
