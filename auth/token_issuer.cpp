#include "auth/token_issuer.h"

#include <algorithm>

#include "auth/base64.h"
#include "auth/client_registry.h"
#include "auth/random_strings.h"
#include "common/json_escape.h"

namespace codepayload::auth {

namespace {

constexpr std::size_t kJwtIdBytes = 16;

// The header segment of every token the active key signs: the members in
// lexicographic order, no whitespace.
std::string headerSegment(const SigningKey& key) {
  std::string header = R"({"alg":")";
  header += key.algorithmName();
  header += R"(","kid":")";
  header += key.kid();  // base64url: nothing to escape
  header += R"(","typ":"at+jwt"})";
  return encodeBase64Url(header);
}

void appendMember(std::string& json, std::string_view name, std::string_view value) {
  json += name;
  common::appendJsonString(json, value);
}

void appendMember(std::string& json, std::string_view name, std::int64_t value) {
  json += name;
  json += std::to_string(value);
}

}  // namespace

TokenIssuer::TokenIssuer(const SigningKeySet& keys, TokenSettings settings, UnixClock clock)
    : keys_(keys), settings_(std::move(settings)), clock_(std::move(clock)) {}

IssuedToken TokenIssuer::issue(const TokenSubject& subject) const {
  const std::int64_t now = std::max(subject.now ? *subject.now : clock_(), subject.notBefore);

  // The claims in lexicographic order, no whitespace, integer NumericDates.
  std::string claims;
  claims.reserve(384);
  appendMember(claims, R"({"aud":)", settings_.audience);
  appendMember(claims, R"(,"client_id":)", subject.clientId);
  appendMember(claims, R"(,"exp":)", now + settings_.lifetimeSeconds);
  appendMember(claims, R"(,"iat":)", now);
  appendMember(claims, R"(,"iss":)", settings_.issuer);
  appendMember(claims, R"(,"jti":)", randomBase64Url(kJwtIdBytes));
  appendMember(claims, R"(,"nbf":)", now);
  if (!subject.scopes.empty()) appendMember(claims, R"(,"scope":)", joinScopes(subject.scopes));
  appendMember(claims, R"(,"sub":)", subject.organizationId);
  claims += '}';

  // The key in force now (a rotation may have replaced it since the last token).
  const SigningKey key = keys_.active();
  IssuedToken issued;
  std::string& token = issued.accessToken;
  token = headerSegment(key);
  token.reserve(token.size() + claims.size() * 4 / 3 + 100);
  token += '.';
  token += encodeBase64Url(claims);
  const std::string signature = key.sign(token);
  token += '.';
  token += encodeBase64Url(signature);
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
