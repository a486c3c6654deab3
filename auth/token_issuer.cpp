#include "auth/token_issuer.h"

#include <Poco/JWT/Token.h>

#include <algorithm>
#include <stdexcept>

#include "auth/base64.h"
#include "auth/client_registry.h"
#include "auth/ecdsa_low_s.h"
#include "auth/random_strings.h"

namespace codepayload::auth {

namespace {

constexpr std::size_t kJwtIdBytes = 16;

// Rewrites the signature segment of an ES256 token to its low-S spelling,
// the only one AccessTokenVerifier accepts (ecdsa_low_s.h).
void makeSignatureLowS(std::string& token) {
  const std::size_t signatureStart = token.rfind('.') + 1;
  std::string signature;
  if (signatureStart == 0 || !decodeBase64UrlStrict(std::string_view(token).substr(signatureStart), signature) ||
      signature.size() != kEs256SignatureSize) {
    throw std::runtime_error("the ES256 signer wrote a signature that is not 64 bytes of base64url");
  }
  auto* bytes = reinterpret_cast<unsigned char*>(signature.data());
  if (!makeLowS(std::span<unsigned char, kEs256SignatureSize>(bytes, kEs256SignatureSize))) return;
  token.replace(signatureStart, std::string::npos, encodeBase64Url(signature));
}

}  // namespace

TokenIssuer::TokenIssuer(const SigningKeySet& keys, TokenSettings settings, UnixClock clock)
    : keys_(keys), settings_(std::move(settings)), clock_(std::move(clock)) {}

IssuedToken TokenIssuer::issue(const TokenSubject& subject) const {
  const std::int64_t now = std::max(clock_(), subject.notBefore);
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
  if (key.algorithm() == SigningAlgorithm::ES256) makeSignatureLowS(issued.accessToken);
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
