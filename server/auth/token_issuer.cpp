#include "server/auth/token_issuer.h"

#include <Poco/JWT/Token.h>

#include "server/auth/client_registry.h"
#include "server/auth/random_strings.h"

namespace codepayload::auth {

namespace {

constexpr std::size_t kJwtIdBytes = 16;

}  // namespace

TokenIssuer::TokenIssuer(const SigningKeySet& keys, TokenSettings settings, UnixClock clock)
    : keys_(keys), settings_(std::move(settings)), clock_(std::move(clock)) {}

IssuedToken TokenIssuer::issue(const TokenSubject& subject) const {
  const std::int64_t now = clock_();
  const SigningKey& key = keys_.active();

  Poco::JWT::Token token;
  token.setType("at+jwt");
  token.header().set("kid", key.kid());
  Poco::JSON::Object& payload = token.payload();
  payload.set("iss", settings_.issuer);
  payload.set("sub", std::string(subject.organisationId));
  payload.set("aud", settings_.audience);
  payload.set("client_id", std::string(subject.clientId));
  if (!subject.scopes.empty()) payload.set("scope", joinScopes(subject.scopes));
  // Integer NumericDates: Token::setIssuedAt() and friends would write fractions.
  payload.set("iat", static_cast<Poco::Int64>(now));
  payload.set("nbf", static_cast<Poco::Int64>(now));
  payload.set("exp", static_cast<Poco::Int64>(now + settings_.lifetimeSeconds));
  payload.set("jti", randomBase64Url(kJwtIdBytes));

  IssuedToken issued;
  issued.accessToken = key.signer().sign(token, key.algorithmName());
  issued.expiresIn = settings_.lifetimeSeconds;
  return issued;
}

std::string TokenIssuer::responseJson(const IssuedToken& token) {
  std::string json;
  json.reserve(token.accessToken.size() + 64);
  json += R"({"access_token":")";
  json += token.accessToken;  // base64url segments and '.', nothing to escape
  json += R"(","token_type":"Bearer","expires_in":)";
  json += std::to_string(token.expiresIn);
  json += '}';
  return json;
}

}  // namespace codepayload::auth
