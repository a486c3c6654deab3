// The token endpoint's lookup of one client (sql_client_registry.cpp's
// kAuthenticationQuery: two text parameters, the client id and the stand-in
// id), on one connection of AuthenticationConnections. On SQLite it is
// prepared once and kept (auth/sqlite_authentication_query.h); on PostgreSQL
// it is a Poco::Data statement, as every other query of the registry: the
// token endpoint answers from memory (auth/registry_view.h) and asks the
// database only to refuse, so a round trip more there costs no throughput.
// Not thread-safe: one per connection, used under that connection's lock.
#pragma once

#include <Poco/Data/Session.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "auth/secret_hasher.h"

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

class AuthenticationQuery {
 public:
  virtual ~AuthenticationQuery() = default;
  // Runs the query; false when it returned no row. Throws RegistryError(Storage)
  // (a digest that is not NULL and not kSecretDigestSize bytes is one).
  virtual bool run(std::string_view clientId, std::string_view standInId, AuthenticationRow& row) = 0;
};

// `sql` prepared for `session` (which must outlive the query), the way its
// database is best asked. Throws RegistryError(Storage).
std::unique_ptr<AuthenticationQuery> prepareAuthenticationQuery(Poco::Data::Session& session, const char* sql);

}  // namespace codepayload::auth
