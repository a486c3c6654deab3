// The token endpoint's query on SQLite, prepared once (SQLITE_PREPARE_PERSISTENT) on the
// connection under the registry's Poco::Data session and kept. Poco::Data
// 1.11 prepares a statement again on every execute (SQLiteStatementImpl::
// compileImpl), which costs more than the lookup itself (docs/decisions.md
// D-A13b); everything else in the registry speaks Poco::Data. Not
// thread-safe: each one belongs to one connection of
// AuthenticationConnections and runs under that connection's lock.
#pragma once

#include <Poco/Data/Session.h>

#include <memory>
#include <string>
#include <string_view>

#include "auth/authentication_query.h"

struct sqlite3_stmt;

namespace codepayload::auth {

class SqliteAuthenticationQuery final : public AuthenticationQuery {
 public:
  // Prepares `sql` on `session`'s connection; `session` must outlive the
  // query. Throws RegistryError(Storage).
  SqliteAuthenticationQuery(Poco::Data::Session& session, const char* sql);
  ~SqliteAuthenticationQuery() override;

  SqliteAuthenticationQuery(const SqliteAuthenticationQuery&) = delete;
  SqliteAuthenticationQuery& operator=(const SqliteAuthenticationQuery&) = delete;

  bool run(std::string_view clientId, std::string_view standInId, AuthenticationRow& row) override;

 private:
  struct Finalize {
    void operator()(sqlite3_stmt* statement) const;
  };
  Poco::Data::Session& session_;
  std::unique_ptr<sqlite3_stmt, Finalize> statement_;
};

}  // namespace codepayload::auth
