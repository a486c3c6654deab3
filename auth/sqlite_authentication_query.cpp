#include "auth/sqlite_authentication_query.h"

#include <Poco/Data/SQLite/Utility.h>
#include <sqlite3.h>

#include <algorithm>

#include "auth/client_registry.h"

namespace codepayload::auth {

namespace {

[[noreturn]] void throwSqliteError(sqlite3* database) {
  throw RegistryError(RegistryError::Kind::Storage,
                      std::string("registry database, reading a client: ") + sqlite3_errmsg(database));
}

void readText(sqlite3_stmt* statement, int column, std::string& text) {
  const unsigned char* value = sqlite3_column_text(statement, column);
  if (value == nullptr) {
    text.clear();
    return;
  }
  text.assign(reinterpret_cast<const char*>(value), static_cast<std::size_t>(sqlite3_column_bytes(statement, column)));
}

// Leaves the kept statement ready for its next use, however the use ended.
class StatementReset {
 public:
  explicit StatementReset(sqlite3_stmt* statement) : statement_(statement) {}
  ~StatementReset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  StatementReset(const StatementReset&) = delete;
  StatementReset& operator=(const StatementReset&) = delete;

 private:
  sqlite3_stmt* statement_;
};

}  // namespace

void SqliteAuthenticationQuery::Finalize::operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }

SqliteAuthenticationQuery::SqliteAuthenticationQuery(Poco::Data::Session& session, const char* sql)
    : session_(session) {
  sqlite3* database = Poco::Data::SQLite::Utility::dbHandle(session_);
  sqlite3_stmt* prepared = nullptr;
  if (sqlite3_prepare_v3(database, sql, -1, SQLITE_PREPARE_PERSISTENT, &prepared, nullptr) != SQLITE_OK) {
    throwSqliteError(database);
  }
  statement_.reset(prepared);
}

SqliteAuthenticationQuery::~SqliteAuthenticationQuery() = default;

bool SqliteAuthenticationQuery::run(std::string_view clientId, std::string_view standInId, AuthenticationRow& row) {
  sqlite3* database = Poco::Data::SQLite::Utility::dbHandle(session_);
  sqlite3_stmt* statement = statement_.get();
  const StatementReset reset(statement);
  if (sqlite3_bind_text64(statement, 1, clientId.data(), clientId.size(), SQLITE_STATIC, SQLITE_UTF8) != SQLITE_OK ||
      sqlite3_bind_text64(statement, 2, standInId.data(), standInId.size(), SQLITE_STATIC, SQLITE_UTF8) != SQLITE_OK) {
    throwSqliteError(database);
  }
  const int stepped = sqlite3_step(statement);
  if (stepped == SQLITE_DONE) return false;
  if (stepped != SQLITE_ROW) throwSqliteError(database);
  readText(statement, 0, row.clientId);
  readText(statement, 1, row.organizationId);
  readText(statement, 2, row.state);
  readText(statement, 3, row.scopes);
  if (sqlite3_column_type(statement, 4) == SQLITE_NULL) {
    row.secretDigest.fill(0);
  } else {
    if (sqlite3_column_bytes(statement, 4) != static_cast<int>(kSecretDigestSize)) {
      throw RegistryError(RegistryError::Kind::Storage, "registry database holds a secret digest of the wrong size");
    }
    const auto* digest = static_cast<const unsigned char*>(sqlite3_column_blob(statement, 4));
    std::copy(digest, digest + kSecretDigestSize, row.secretDigest.begin());
  }
  readText(statement, 5, row.plan);
  readText(statement, 6, row.subscription);
  row.tokensNotBefore = sqlite3_column_int64(statement, 7);
  return true;
}

}  // namespace codepayload::auth
