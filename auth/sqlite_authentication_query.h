// The client registry's one connector-specific piece: the token endpoint's
// query on SQLite, prepared once (SQLITE_PREPARE_PERSISTENT) on the
// connection under the registry's Poco::Data session and kept. Poco::Data
// 1.11 prepares a statement again on every execute (SQLiteStatementImpl::
// compileImpl), which costs more than the lookup itself (docs/decisions.md
// D-A13b); everything else in the registry speaks Poco::Data. Not
// thread-safe: each one belongs to one connection of
// SqliteAuthenticationConnections and runs under that connection's lock.
#pragma once

#include <Poco/Data/Session.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "auth/secret_hasher.h"

struct sqlite3_stmt;

namespace codepayload::auth {

// The columns of the authentication query, in its order.
struct AuthenticationRow {
  std::string clientId;
  std::string organizationId;
  std::string state;
  std::string scopes;
  SecretDigest secretDigest{};  // NULL (a tombstone) reads as 32 zero bytes
  std::string plan;
  std::string subscription;
  std::int64_t tokensNotBefore = 0;
};

class SqliteAuthenticationQuery {
 public:
  // Prepares `sql` (two text parameters: the client id, the stand-in id) on `session`'s connection; `session` must
  // outlive the query. Throws RegistryError(Storage).
  SqliteAuthenticationQuery(Poco::Data::Session& session, const char* sql);
  ~SqliteAuthenticationQuery();

  SqliteAuthenticationQuery(const SqliteAuthenticationQuery&) = delete;
  SqliteAuthenticationQuery& operator=(const SqliteAuthenticationQuery&) = delete;

  // Runs the query; false when it returned no row. Throws RegistryError(Storage)
  // (a digest that is not NULL and not kSecretDigestSize bytes is one).
  bool run(std::string_view clientId, std::string_view standInId, AuthenticationRow& row);

 private:
  struct Finalize {
    void operator()(sqlite3_stmt* statement) const;
  };
  Poco::Data::Session& session_;
  std::unique_ptr<sqlite3_stmt, Finalize> statement_;
};

}  // namespace codepayload::auth
