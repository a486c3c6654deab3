#include "auth/access_token_verifier.h"

#include <Poco/JWT/Token.h>

#include <simdjson.h>

#include <array>

#include "auth/base64.h"
#include "auth/client_registry.h"
#include "auth/ecdsa_low_s.h"
#include "common/ascii.h"

namespace codepayload::auth {

namespace {

constexpr std::int64_t kLargestNumericDate = (std::int64_t{1} << 53) - 1;
constexpr std::size_t kMaxMembers = 32;

// One pair of JSON parsers per thread, sized for the largest token and
// limited to a shallow nesting depth (deeper documents are malformed here).
struct TokenJsonParsers {
  static constexpr std::size_t kMaxDepth = 32;
  TokenJsonParsers()
      : ready(header.allocate(kMaxAccessTokenLength, kMaxDepth) == simdjson::SUCCESS &&
              payload.allocate(kMaxAccessTokenLength, kMaxDepth) == simdjson::SUCCESS) {}
  simdjson::dom::parser header;
  simdjson::dom::parser payload;
  bool ready;  // false when memory ran out: every token is then refused
};

// Parses `json` as an object whose member names are distinct. False for
// anything else (not JSON, not UTF-8, not an object, duplicates, too many).
bool parseObject(simdjson::dom::parser& parser, const std::string& json, simdjson::dom::object& object) {
  if (parser.parse(json).get_object().get(object) != simdjson::SUCCESS) return false;
  std::array<std::string_view, kMaxMembers> names;
  std::size_t count = 0;
  for (const auto field : object) {
    if (count == kMaxMembers) return false;
    for (std::size_t index = 0; index < count; ++index) {
      if (names[index] == field.key) return false;
    }
    names[count++] = field.key;
  }
  return true;
}

bool readNumericDate(simdjson::dom::element element, std::int64_t& value) {
  // Only JSON integers: a string, a fraction or an exponent form is refused.
  if (element.type() != simdjson::dom::element_type::INT64 && element.type() != simdjson::dom::element_type::UINT64) {
    return false;
  }
  std::int64_t number = 0;
  if (element.get_int64().get(number) != simdjson::SUCCESS) return false;
  if (number < 0 || number > kLargestNumericDate) return false;
  value = number;
  return true;
}

bool readNonEmptyString(simdjson::dom::element element, std::string_view& value) {
  return element.get_string().get(value) == simdjson::SUCCESS && !value.empty();
}

bool audienceMatches(simdjson::dom::element element, std::string_view audience, bool& wellTyped) {
  std::string_view single;
  if (element.get_string().get(single) == simdjson::SUCCESS) {
    wellTyped = true;
    return single == audience;
  }
  simdjson::dom::array list;
  if (element.get_array().get(list) != simdjson::SUCCESS) {
    wellTyped = false;
    return false;
  }
  bool found = false;
  for (const auto entry : list) {
    std::string_view text;
    if (entry.get_string().get(text) != simdjson::SUCCESS) {
      wellTyped = false;
      return false;
    }
    if (text == audience) found = true;
  }
  wellTyped = true;
  return found;
}

struct Segments {
  std::string_view header;
  std::string_view payload;
  std::string_view signature;
};

bool splitSegments(std::string_view token, Segments& segments) {
  const std::size_t first = token.find('.');
  if (first == std::string_view::npos) return false;
  const std::size_t second = token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) return false;
  segments.header = token.substr(0, first);
  segments.payload = token.substr(first + 1, second - first - 1);
  segments.signature = token.substr(second + 1);
  return !segments.header.empty() && !segments.payload.empty() && !segments.signature.empty();
}

// The algorithms a key of the set can have: anything else is refused before
// the kid is looked at.
bool isSigningAlgorithm(std::string_view algorithm) {
  return algorithm == signingAlgorithmName(SigningAlgorithm::ES256) ||
         algorithm == signingAlgorithmName(SigningAlgorithm::RS256);
}

TokenRejection checkHeader(simdjson::dom::object header, const SigningKeySet& keys, std::optional<SigningKey>& key) {
  std::string_view algorithm;
  bool sawAlgorithm = false;
  bool sawType = false;
  bool sawKeyId = false;
  for (const auto field : header) {
    std::string_view text;
    if (field.value.get_string().get(text) != simdjson::SUCCESS) return TokenRejection::BadHeader;
    if (field.key == "alg") {
      if (!isSigningAlgorithm(text)) return TokenRejection::BadHeader;
      algorithm = text;
      sawAlgorithm = true;
    } else if (field.key == "typ") {
      if (!common::equalsIgnoringAsciiCase(text, "at+jwt") &&
          !common::equalsIgnoringAsciiCase(text, "application/at+jwt")) {
        return TokenRejection::BadHeader;
      }
      sawType = true;
    } else if (field.key == "kid") {
      key = keys.find(text);
      sawKeyId = true;
    } else {
      // crit, jku, x5u, jwk, x5c, cty, ...: deny by default.
      return TokenRejection::BadHeader;
    }
  }
  if (!sawAlgorithm || !sawType) return TokenRejection::BadHeader;
  if (!sawKeyId || !key) return TokenRejection::UnknownKey;
  // The algorithm follows the key: an ES256 header naming an RSA key, or RS256
  // naming an EC key, is refused like any other algorithm.
  if (algorithm != key->algorithmName()) return TokenRejection::BadHeader;
  return TokenRejection::None;
}

bool signatureVerifies(const SigningKey& key, std::string_view token, std::string_view signature) {
  // Poco splits an ES256 signature in halves and takes &signature[0] for RS256
  // without looking at the length: only the key's exact size reaches it.
  if (signature.size() != key.signatureSize()) return false;
  // Of the two spellings (R, S) and (R, n - S) of an ECDSA signature, only the
  // low-S one is accepted (ecdsa_low_s.h): one token, one spelling.
  if (key.algorithm() == SigningAlgorithm::ES256 &&
      !hasLowS(std::span<const unsigned char, kEs256SignatureSize>(
          reinterpret_cast<const unsigned char*>(signature.data()), kEs256SignatureSize))) {
    return false;
  }
  try {
    Poco::JWT::Token parsed;
    return key.signer().tryVerify(std::string(token), parsed);
  } catch (...) {
    // Poco reports malformed input and unallowed algorithms by exceptions.
    return false;
  }
}

}  // namespace

std::string_view tokenRejectionName(TokenRejection rejection) {
  switch (rejection) {
    case TokenRejection::None: return "none";
    case TokenRejection::TooLong: return "tooLong";
    case TokenRejection::Malformed: return "malformed";
    case TokenRejection::BadHeader: return "badHeader";
    case TokenRejection::UnknownKey: return "unknownKey";
    case TokenRejection::BadSignature: return "badSignature";
    case TokenRejection::WrongIssuer: return "wrongIssuer";
    case TokenRejection::WrongAudience: return "wrongAudience";
    case TokenRejection::Expired: return "expired";
    case TokenRejection::NotYetValid: return "notYetValid";
  }
  return "unknown";
}

AccessTokenVerifier::AccessTokenVerifier(const SigningKeySet& keys, TokenSettings settings)
    : keys_(keys), settings_(std::move(settings)) {}

TokenRejection AccessTokenVerifier::verify(std::string_view token, std::int64_t now, AccessTokenClaims& claims) const {
  if (token.size() > kMaxAccessTokenLength) return TokenRejection::TooLong;
  Segments segments;
  if (!splitSegments(token, segments)) return TokenRejection::Malformed;
  std::string headerJson;
  std::string payloadJson;
  std::string signature;
  if (!decodeBase64UrlStrict(segments.header, headerJson) || !decodeBase64UrlStrict(segments.payload, payloadJson) ||
      !decodeBase64UrlStrict(segments.signature, signature)) {
    return TokenRejection::Malformed;
  }

  thread_local TokenJsonParsers parsers;
  simdjson::dom::object header;
  simdjson::dom::object payload;
  if (!parsers.ready || !parseObject(parsers.header, headerJson, header) ||
      !parseObject(parsers.payload, payloadJson, payload)) {
    return TokenRejection::Malformed;
  }
  std::optional<SigningKey> key;
  if (const TokenRejection rejection = checkHeader(header, keys_, key); rejection != TokenRejection::None) {
    return rejection;
  }
  if (!signatureVerifies(*key, token, signature)) return TokenRejection::BadSignature;

  // Only now, with the signature verified, are the claims read.

  std::string_view issuer, subject, clientId, jwtId, scope;
  std::int64_t issuedAt = 0, expiresAt = 0, notBefore = 0;
  bool hasIssuer = false, hasSubject = false, hasClientId = false, hasJwtId = false;
  bool hasIssuedAt = false, hasExpiresAt = false, hasAudience = false, audienceOk = false;
  for (const auto field : payload) {
    const std::string_view name = field.key;
    bool ok = true;
    if (name == "iss") {
      ok = hasIssuer = readNonEmptyString(field.value, issuer);
    } else if (name == "sub") {
      ok = hasSubject = readNonEmptyString(field.value, subject);
    } else if (name == "client_id") {
      ok = hasClientId = readNonEmptyString(field.value, clientId);
    } else if (name == "jti") {
      ok = hasJwtId = readNonEmptyString(field.value, jwtId);
    } else if (name == "scope") {
      ok = field.value.get_string().get(scope) == simdjson::SUCCESS;
    } else if (name == "aud") {
      audienceOk = audienceMatches(field.value, settings_.audience, ok);
      hasAudience = ok;
    } else if (name == "iat") {
      ok = hasIssuedAt = readNumericDate(field.value, issuedAt);
    } else if (name == "exp") {
      ok = hasExpiresAt = readNumericDate(field.value, expiresAt);
    } else if (name == "nbf") {
      ok = readNumericDate(field.value, notBefore);
    }
    if (!ok) return TokenRejection::Malformed;
  }
  if (!hasIssuer || !hasSubject || !hasClientId || !hasJwtId || !hasAudience || !hasIssuedAt || !hasExpiresAt) {
    return TokenRejection::Malformed;
  }
  if (issuer != settings_.issuer) return TokenRejection::WrongIssuer;
  if (!audienceOk) return TokenRejection::WrongAudience;
  if (!isWellFormedOrganizationId(subject) || !isWellFormedClientId(clientId) || expiresAt <= issuedAt) {
    return TokenRejection::Malformed;
  }
  const std::int64_t leeway = settings_.leewaySeconds;
  if (now > expiresAt + leeway) return TokenRejection::Expired;
  if (notBefore > now + leeway || issuedAt > now + leeway) return TokenRejection::NotYetValid;

  claims.organizationId.assign(subject);
  claims.clientId.assign(clientId);
  claims.scope.assign(scope);
  claims.jwtId.assign(jwtId);
  claims.issuedAt = issuedAt;
  claims.expiresAt = expiresAt;
  return TokenRejection::None;
}

bool scopeContains(std::string_view scope, std::string_view required) {
  bool found = false;
  const bool valid = forEachScopeInList(scope, [&](std::string_view entry) { found = found || entry == required; });
  return valid && found;
}

}  // namespace codepayload::auth
