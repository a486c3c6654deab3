#include "auth/authentication_query.h"

#include <Poco/Data/LOB.h>
#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Nullable.h>

#include <algorithm>
#include <vector>

#include "auth/client_registry.h"
#include "auth/sqlite_authentication_query.h"

namespace codepayload::auth {

namespace {

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

// The query as a Poco::Data statement, executed afresh on each run.
class PortableAuthenticationQuery final : public AuthenticationQuery {
 public:
  PortableAuthenticationQuery(Poco::Data::Session& session, const char* sql) : session_(session), sql_(sql) {}

  bool run(std::string_view clientId, std::string_view standInId, AuthenticationRow& row) override {
    std::vector<std::string> ids, organizationIds, states, scopes, plans, subscriptions;
    std::vector<Poco::Nullable<Poco::Data::BLOB>> digests;
    std::vector<Poco::Int64> notBefore;
    session_ << sql_, bind(std::string(clientId)), bind(std::string(standInId)), into(ids), into(organizationIds),
        into(states), into(scopes), into(digests), into(plans), into(subscriptions), into(notBefore), now;
    if (ids.empty()) return false;
    row.clientId = std::move(ids.front());
    row.organizationId = std::move(organizationIds.front());
    row.state = std::move(states.front());
    row.scopes = std::move(scopes.front());
    if (digests.front().isNull()) {
      row.secretDigest.fill(0);
    } else {
      const Poco::Data::BLOB& digest = digests.front().value();
      if (digest.size() != kSecretDigestSize) {
        throw RegistryError(RegistryError::Kind::Storage, "registry database holds a secret digest of the wrong size");
      }
      std::copy_n(digest.rawContent(), kSecretDigestSize, row.secretDigest.begin());
    }
    row.plan = std::move(plans.front());
    row.subscription = std::move(subscriptions.front());
    row.tokensNotBefore = notBefore.front();
    return true;
  }

 private:
  Poco::Data::Session& session_;
  const char* sql_;
};

}  // namespace

std::unique_ptr<AuthenticationQuery> prepareAuthenticationQuery(Poco::Data::Session& session, const char* sql) {
  if (session.connector() == Poco::Data::SQLite::Connector::KEY) {
    return std::make_unique<SqliteAuthenticationQuery>(session, sql);
  }
  return std::make_unique<PortableAuthenticationQuery>(session, sql);
}

}  // namespace codepayload::auth
