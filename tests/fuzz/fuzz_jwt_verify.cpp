// fuzz_jwt_verify: bearer tokens for auth::BearerAuthenticator (and
// auth::AccessTokenVerifier on its own), against a real ES256 token issued in
// LLVMFuzzerInitialize by auth::TokenIssuer for the fixture's active client.
// The key set is the fixture's: an active EC P-256 key and a published RSA key.
//
// The first byte picks the mode (modulo 4); the rest is the mode's text:
//  0  raw token: "Bearer " + text; the text also goes to the verifier alone;
//  1  raw Authorization values: the text split at '\n' into up to three
//     values, $TOKEN replaced by the real token;
//  2  near-valid: the text is an edit script applied to the real token, four
//     bytes per edit {kind, position high, position low, byte}; kind modulo 4:
//     replace, insert, erase, or flip one bit (byte modulo 8) at the position
//     (modulo the length);
//  3  re-signed: the text is "<header JSON>\n<payload JSON>" (without '\n',
//     the whole text is the payload under the real header), placeholders
//     ($KID, $RSA_KID, $ACTIVE_ID, $ACTIVE_ORG, $LAPSED_ID, ... see
//     AuthFuzzFixture) replaced, base64url-encoded and signed with a real key
//     of the set, so the header and claim checks behind the signature are
//     reached: ES256 (R||S, S in its low spelling, S <= n/2) with the EC key,
//     or, when bit 2 of the first byte is set ('7' instead of '3'), RS256 with
//     the RSA key.
//
// Invariants (abort on violation):
//  - never a crash; the outcome is 200 "OK" with claims, 401 "Unauthorized" or
//    403 "Forbidden" with the matching ErrorEnvelope code, a Bearer challenge
//    and a message that does not repeat the token;
//  - modes 0-2: allowed exactly when the one Authorization value is
//    "Bearer <the untouched real token>" (scheme in any case, spaces around);
//    the verifier alone accepts exactly the untouched token;
//  - mode 3: allowed only when the header is exactly {alg, typ at+jwt, kid}
//    with the alg and kid of the key that signed (ES256 and the EC kid, or
//    RS256 and the RSA kid) and the claims are the active client's, with the issuer,
//    audience, scope write:codes and times the verifier documents; the
//    returned claims are the payload's; "lapsed" only for the lapsed client,
//    "insufficientScope" only without write:codes; the high-S twin (R, n - S)
//    of every ES256 signature is refused by the verifier alone: badSignature,
//    or what refused the low-S token before its signature was checked.
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <simdjson.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "auth/access_token_verifier.h"
#include "auth/base64.h"
#include "auth/bearer_authenticator.h"
#include "auth/openssl_handles.h"
#include "auth/registry_view.h"
#include "auth/token_issuer.h"
#include "auth/verified_token_cache.h"
#include "tests/fuzz/auth_fuzz_fixture.h"
#include "tests/fuzz/fuzz_check.h"

namespace codepayload::fuzz {
namespace {

constexpr std::int64_t kVerifiedAt = AuthFuzzFixture::kNow + 60;  // the authenticator's clock

// A signing key as an OpenSSL key, read once from its PEM form.
openssl::PrivateKey privateKeyOf(const auth::SigningKey& key) {
  std::ostringstream pem;
  key.keyPair().save(nullptr, &pem);
  const std::string text = pem.str();
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())), &BIO_free);
  EVP_PKEY* privateKey = PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr);
  require(privateKey != nullptr, "the signing key reads back from PEM");
  return openssl::PrivateKey(privateKey);
}

struct Harness {
  AuthFuzzFixture fixture;
  auth::AccessTokenVerifier verifier{fixture.keys(), auth::TokenSettings{}};
  auth::RegistryView view{fixture.registry(), AuthFuzzFixture::clock()};
  auth::VerifiedTokenCache cache{256};
  auth::BearerAuthenticator authenticator{verifier, view, cache, [] { return kVerifiedAt; }};
  openssl::PrivateKey ecPrivateKey = privateKeyOf(fixture.ecKey());
  openssl::PrivateKey rsaPrivateKey = privateKeyOf(fixture.rsaKey());
  std::string realToken;
  std::string realHeaderJson;
  std::string realPayloadJson;
  simdjson::dom::parser parser;
  // n, the order of P-256, and n / 2 (rounded down).
  openssl::Bignum order = groupOrder();
  openssl::Bignum halfOrder = half(order.get());

  static openssl::Bignum groupOrder() {
    const std::unique_ptr<EC_GROUP, decltype(&EC_GROUP_free)> group(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1),
                                                                    &EC_GROUP_free);
    require(group != nullptr, "the P-256 group exists");
    return openssl::Bignum(BN_dup(EC_GROUP_get0_order(group.get())));
  }
  static openssl::Bignum half(const BIGNUM* value) {
    openssl::Bignum result(BN_new());
    require(result != nullptr && BN_rshift1(result.get(), value) == 1, "n / 2 is computed");
    return result;
  }
};

Harness* harness = nullptr;

// R || S with S replaced by n - S: the other spelling of the same signature.
std::string otherSpelling(std::string raw) {
  auto* bytes = reinterpret_cast<unsigned char*>(raw.data());
  const openssl::Bignum s(BN_bin2bn(bytes + 32, 32, nullptr));
  const openssl::Bignum twin(BN_new());
  require(s != nullptr && twin != nullptr && BN_sub(twin.get(), harness->order.get(), s.get()) == 1 &&
              BN_bn2binpad(twin.get(), bytes + 32, 32) == 32,
          "n - S fits 32 bytes");
  return raw;
}

bool hasHighS(const std::string& raw) {
  const openssl::Bignum s(BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()) + 32, 32, nullptr));
  require(s != nullptr, "S reads as a number");
  return BN_cmp(s.get(), harness->halfOrder.get()) > 0;
}

// The DER ECDSA-Sig-Value OpenSSL makes as JWS wants it: R || S, 32 bytes
// each, S in its low spelling (S <= n/2), the only one the verifier accepts.
std::string rawEcdsaSignature(const std::string& der) {
  const auto* cursor = reinterpret_cast<const unsigned char*>(der.data());
  const openssl::EcdsaSignature signature(d2i_ECDSA_SIG(nullptr, &cursor, static_cast<long>(der.size())));
  require(signature != nullptr, "an ECDSA signature is DER");
  std::string raw(64, '\0');
  auto* out = reinterpret_cast<unsigned char*>(raw.data());
  require(BN_bn2binpad(ECDSA_SIG_get0_r(signature.get()), out, 32) == 32 &&
              BN_bn2binpad(ECDSA_SIG_get0_s(signature.get()), out + 32, 32) == 32,
          "R and S fit 32 bytes");
  return hasHighS(raw) ? otherSpelling(std::move(raw)) : raw;
}

// "<header>.<payload>.<signature>" signed with `key` (its own algorithm).
std::string signJws(std::string_view headerJson, std::string_view payloadJson, const auth::SigningKey& key) {
  const bool ec = key.algorithm() == auth::SigningAlgorithm::ES256;
  EVP_PKEY* privateKey = ec ? harness->ecPrivateKey.get() : harness->rsaPrivateKey.get();
  const std::string input = auth::encodeBase64Url(headerJson) + "." + auth::encodeBase64Url(payloadJson);
  openssl::DigestContext context(EVP_MD_CTX_new());
  std::size_t length = 0;
  const auto* bytes = reinterpret_cast<const unsigned char*>(input.data());
  require(EVP_DigestSignInit(context.get(), nullptr, EVP_sha256(), nullptr, privateKey) == 1 &&
              EVP_DigestSign(context.get(), nullptr, &length, bytes, input.size()) == 1,
          "signing starts");
  std::string signature(length, '\0');
  require(EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &length, bytes,
                         input.size()) == 1,
          "signing succeeds");
  signature.resize(length);
  if (ec) signature = rawEcdsaSignature(signature);
  require(signature.size() == key.signatureSize(), "a signature has the key's size");
  return input + "." + auth::encodeBase64Url(signature);
}

bool equalsIgnoringAsciiCase(std::string_view left, std::string_view right) {
  return std::equal(left.begin(), left.end(), right.begin(), right.end(), [](char a, char b) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return lower(a) == lower(b);
  });
}

// "Bearer <real token>" with optional SP/HTAB around, any case of the scheme,
// one or more spaces after it: the one spelling the authenticator accepts.
bool presentsRealToken(const std::vector<std::string_view>& values) {
  if (values.size() != 1) return false;
  std::string_view value = values.front();
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  constexpr std::string_view kScheme = "bearer ";
  if (value.size() < kScheme.size() || !equalsIgnoringAsciiCase(value.substr(0, kScheme.size()), kScheme)) {
    return false;
  }
  value.remove_prefix(kScheme.size());
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  return value == harness->realToken;
}

// RFC 6749 §3.3 scope-tokens as the service limits them, written here apart
// from auth/: each 1 to 64 characters of %x21 / %x23-5B / %x5D-7E, one space
// between two. A list that breaks this grants nothing.
bool isValidScopeList(std::string_view scope) {
  std::size_t start = 0;
  while (true) {
    const std::size_t end = std::min(scope.find(' ', start), scope.size());
    const std::string_view token = scope.substr(start, end - start);
    if (token.empty() || token.size() > 64) return false;
    for (const char character : token) {
      const auto byte = static_cast<unsigned char>(character);
      if (byte < 0x21 || byte > 0x7E || byte == '"' || byte == '\\') return false;
    }
    if (end == scope.size()) return true;
    start = end + 1;
  }
}

bool containsScopeToken(std::string_view scope, std::string_view wanted) {
  std::size_t start = 0;
  while (start <= scope.size()) {
    const std::size_t end = std::min(scope.find(' ', start), scope.size());
    if (scope.substr(start, end - start) == wanted) return true;
    start = end + 1;
  }
  return false;
}

void checkOutcomeShape(const auth::BearerOutcome& outcome, std::string_view token) {
  const std::string shown = std::to_string(outcome.status) + " " + std::string(outcome.cause);
  require(!outcome.cause.empty(), "every outcome names its cause", shown);
  switch (outcome.verdict) {
    case auth::BearerOutcome::Verdict::Allowed:
      require(outcome.status == 200 && outcome.reason == "OK" && outcome.claims != nullptr &&
                  outcome.wwwAuthenticate.empty() && outcome.errorCode.empty() && outcome.message.empty(),
              "an allowed outcome is 200 with claims and no error", shown);
      return;
    case auth::BearerOutcome::Verdict::Unauthorized:
      require(outcome.status == 401 && outcome.reason == "Unauthorized" && outcome.errorCode == "Unauthorized",
              "an unauthorized outcome is 401 Unauthorized", shown);
      break;
    case auth::BearerOutcome::Verdict::Forbidden:
      require(outcome.status == 403 && outcome.reason == "Forbidden" && outcome.errorCode == "Forbidden",
              "a forbidden outcome is 403 Forbidden", shown);
      require(outcome.wwwAuthenticate.find(R"(error="insufficient_scope")") != std::string::npos,
              "a 403 challenge says insufficient_scope", outcome.wwwAuthenticate);
      break;
    case auth::BearerOutcome::Verdict::ServerError:
      require(false, "the fixture's registry never fails, so no outcome is a server error", shown);
      return;
  }
  require(outcome.claims == nullptr, "a refusal carries no claims", shown);
  require(outcome.wwwAuthenticate.starts_with(auth::kBearerChallenge), "a refusal carries the Bearer challenge",
          outcome.wwwAuthenticate);
  require(!outcome.message.empty(), "a refusal has a message", shown);
  // A token of 16 or more characters without spaces cannot occur in a fixed
  // message by chance (their longest word is 14 characters).
  if (token.size() >= 16 && token.find(' ') == std::string_view::npos) {
    require(outcome.message.find(token) == std::string::npos, "a refusal's message never repeats the token",
            outcome.message);
  }
}

// Modes 0-2: the outcome is allowed exactly for the untouched real token.
void checkExactTokenOnly(const std::vector<std::string_view>& values, std::string_view token) {
  const auth::BearerOutcome outcome = harness->authenticator.authenticate(values, AuthFuzzFixture::kScope);
  checkOutcomeShape(outcome, token);
  require(outcome.allowed() == presentsRealToken(values), "only the untouched real token is allowed", token);
}

void checkVerifierAlone(std::string_view token) {
  auth::AccessTokenClaims claims;
  const auth::TokenRejection rejection = harness->verifier.verify(token, kVerifiedAt, claims);
  require((rejection == auth::TokenRejection::None) == (token == harness->realToken),
          "the verifier accepts exactly the untouched real token", token);
}

std::string applyEdits(std::string_view script) {
  std::string token = harness->realToken;
  for (std::size_t at = 0; at + 4 <= script.size(); at += 4) {
    const auto kind = static_cast<unsigned char>(script[at]) % 4;
    const std::size_t wide = static_cast<std::size_t>(static_cast<unsigned char>(script[at + 1])) << 8 |
                             static_cast<unsigned char>(script[at + 2]);
    const char byte = script[at + 3];
    if (kind == 1) {
      token.insert(token.begin() + static_cast<std::ptrdiff_t>(wide % (token.size() + 1)), byte);
      continue;
    }
    if (token.empty()) continue;
    const std::size_t position = wide % token.size();
    if (kind == 0) token[position] = byte;
    if (kind == 2) token.erase(position, 1);
    if (kind == 3) token[position] = static_cast<char>(token[position] ^ (1 << (static_cast<unsigned char>(byte) % 8)));
  }
  return token;
}

// JSON `text` parsed as an object without repeated members, or nullopt.
std::optional<simdjson::dom::object> uniqueObject(simdjson::dom::parser& parser, std::string_view text) {
  simdjson::dom::element element;
  simdjson::dom::object object;
  if (parser.parse(text.data(), text.size()).get(element) != simdjson::SUCCESS) return std::nullopt;
  if (element.get_object().get(object) != simdjson::SUCCESS) return std::nullopt;
  std::vector<std::string_view> keys;
  for (simdjson::dom::key_value_pair member : object) keys.push_back(member.key);
  std::sort(keys.begin(), keys.end());
  if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) return std::nullopt;
  return object;
}

bool stringIs(simdjson::dom::object object, std::string_view key, std::string_view expected) {
  std::string_view value;
  return object.at_key(key).get_string().get(value) == simdjson::SUCCESS && value == expected;
}

// What an accepted re-signed token must look like, checked independently of
// the verifier: the documented header and claims.
void checkAcceptedClaims(std::string_view headerJson, std::string_view payloadJson, const auth::SigningKey& signer,
                         const auth::AccessTokenClaims& claims) {
  const std::string shown = std::string(headerJson) + "\n" + std::string(payloadJson);
  simdjson::dom::parser headerParser;
  const std::optional<simdjson::dom::object> header = uniqueObject(headerParser, headerJson);
  require(header.has_value() && header->size() == 3, "an accepted header is an object of three members", shown);
  std::string_view type;
  require(stringIs(*header, "alg", signer.algorithmName()) && stringIs(*header, "kid", signer.kid()) &&
              header->at_key("typ").get_string().get(type) == simdjson::SUCCESS &&
              (equalsIgnoringAsciiCase(type, "at+jwt") || equalsIgnoringAsciiCase(type, "application/at+jwt")),
          "an accepted header is the signing key's alg and kid, at+jwt", shown);

  const std::optional<simdjson::dom::object> payload = uniqueObject(harness->parser, payloadJson);
  require(payload.has_value(), "an accepted payload is an object without repeated members", shown);
  const auth::TokenSettings settings;
  const FuzzClient& active = harness->fixture.active();
  require(stringIs(*payload, "iss", settings.issuer), "an accepted token has the issuer", shown);
  require(stringIs(*payload, "sub", active.organizationId) && stringIs(*payload, "client_id", active.id),
          "an accepted token is the active client's", shown);
  bool audienceMatches = stringIs(*payload, "aud", settings.audience);
  simdjson::dom::array audiences;
  if (payload->at_key("aud").get_array().get(audiences) == simdjson::SUCCESS) {
    for (simdjson::dom::element audience : audiences) {
      std::string_view text;
      require(audience.get_string().get(text) == simdjson::SUCCESS, "an accepted aud array holds strings", shown);
      audienceMatches = audienceMatches || text == settings.audience;
    }
  }
  require(audienceMatches, "an accepted token has the audience", shown);
  std::string_view scope;
  std::string_view jwtId;
  require(payload->at_key("scope").get_string().get(scope) == simdjson::SUCCESS &&
              containsScopeToken(scope, AuthFuzzFixture::kScope) && isValidScopeList(scope),
          "an accepted token carries write:codes in a valid scope list", shown);
  require(payload->at_key("jti").get_string().get(jwtId) == simdjson::SUCCESS && !jwtId.empty(),
          "an accepted token has a jti", shown);
  std::int64_t issuedAt = 0;
  std::int64_t expiresAt = 0;
  std::int64_t notBefore = 0;
  require(payload->at_key("iat").get_int64().get(issuedAt) == simdjson::SUCCESS &&
              payload->at_key("exp").get_int64().get(expiresAt) == simdjson::SUCCESS,
          "an accepted token has integer iat and exp", shown);
  const simdjson::error_code notBeforeError = payload->at_key("nbf").get_int64().get(notBefore);
  require(notBeforeError == simdjson::SUCCESS || notBeforeError == simdjson::NO_SUCH_FIELD,
          "an accepted nbf is absent or an integer", shown);
  const std::int64_t leeway = settings.leewaySeconds;
  require(expiresAt > issuedAt && kVerifiedAt <= expiresAt + leeway && issuedAt <= kVerifiedAt + leeway &&
              (notBeforeError == simdjson::NO_SUCH_FIELD || notBefore <= kVerifiedAt + leeway),
          "an accepted token is within its time window", shown);
  require(claims.organizationId == active.organizationId && claims.clientId == active.id && claims.scope == scope &&
              claims.jwtId == jwtId && claims.issuedAt == issuedAt && claims.expiresAt == expiresAt,
          "the returned claims are the payload's", shown);
}

void checkResigned(std::string_view text, const auth::SigningKey& signer) {
  const std::size_t newline = text.find('\n');
  const std::string headerJson = newline == std::string_view::npos
                                     ? harness->realHeaderJson
                                     : harness->fixture.substitute(text.substr(0, newline));
  const std::string payloadJson =
      harness->fixture.substitute(newline == std::string_view::npos ? text : text.substr(newline + 1));
  const std::string token = signJws(headerJson, payloadJson, signer);
  const std::string value = "Bearer " + token;
  const std::vector<std::string_view> values{value};
  const auth::BearerOutcome outcome = harness->authenticator.authenticate(values, AuthFuzzFixture::kScope);
  checkOutcomeShape(outcome, token);
  const std::string shown = headerJson + "\n" + payloadJson;
  if (&signer == &harness->fixture.ecKey()) {
    // One token, one spelling: the high-S twin of the signature never passes.
    const std::size_t signatureStart = token.rfind('.') + 1;
    std::string signature;
    require(
        auth::decodeBase64UrlStrict(std::string_view(token).substr(signatureStart), signature) && !hasHighS(signature),
        "the harness signs with low S", shown);
    const std::string twin = token.substr(0, signatureStart) + auth::encodeBase64Url(otherSpelling(signature));
    auth::AccessTokenClaims claims;
    const auth::TokenRejection original = harness->verifier.verify(token, kVerifiedAt, claims);
    const auth::TokenRejection twinRejection = harness->verifier.verify(twin, kVerifiedAt, claims);
    // Refused before its signature is looked at: the twin the same way.
    const bool refusedBeforeTheSignature =
        original == auth::TokenRejection::Malformed || original == auth::TokenRejection::BadHeader ||
        original == auth::TokenRejection::UnknownKey || original == auth::TokenRejection::TooLong;
    require(
        twinRejection == auth::TokenRejection::BadSignature || (refusedBeforeTheSignature && twinRejection == original),
        "the high-S spelling of an ES256 signature is refused", shown);
  }
  // ECDSA signatures are randomised: the real token's header and payload
  // signed again by the EC key make another token that must pass as well.
  if (&signer == &harness->fixture.ecKey() && headerJson == harness->realHeaderJson &&
      payloadJson == harness->realPayloadJson) {
    require(outcome.allowed(), "the real token re-signed is allowed", shown);
  }
  if (outcome.allowed()) {
    checkAcceptedClaims(headerJson, payloadJson, signer, *outcome.claims);
  } else if (outcome.cause == "lapsed") {
    require(payloadJson.find(harness->fixture.lapsed().id) != std::string::npos,
            "only the lapsed organization's client is lapsed", shown);
  } else if (outcome.cause == "insufficientScope") {
    simdjson::dom::parser parser;
    const std::optional<simdjson::dom::object> payload = uniqueObject(parser, payloadJson);
    std::string_view scope;
    require(payload.has_value(), "a verified payload is an object", shown);
    require(payload->at_key("scope").get_string().get(scope) != simdjson::SUCCESS ||
                !containsScopeToken(scope, AuthFuzzFixture::kScope) || !isValidScopeList(scope),
            "insufficientScope only without write:codes or with a scope list that is not valid", shown);
  }
}

std::vector<std::string_view> splitValues(std::string_view text) {
  std::vector<std::string_view> values;
  while (values.size() < 2) {
    const std::size_t end = text.find('\n');
    if (end == std::string_view::npos) break;
    values.push_back(text.substr(0, end));
    text.remove_prefix(end + 1);
  }
  values.push_back(text);
  return values;
}

std::string replaceTokenPlaceholder(std::string_view text) {
  std::string result(text);
  constexpr std::string_view kPlaceholder = "$TOKEN";
  for (std::size_t at = result.find(kPlaceholder); at != std::string::npos;
       at = result.find(kPlaceholder, at + harness->realToken.size())) {
    result.replace(at, kPlaceholder.size(), harness->realToken);
  }
  return result;
}

}  // namespace
}  // namespace codepayload::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  using namespace codepayload;
  auto* harness = new fuzz::Harness();
  const fuzz::FuzzClient& client = harness->fixture.active();
  const std::vector<std::string> scopes{std::string(fuzz::AuthFuzzFixture::kScope)};
  const auth::TokenIssuer issuer(harness->fixture.keys(), auth::TokenSettings{}, fuzz::AuthFuzzFixture::clock());
  harness->realToken = issuer.issue({client.organizationId, client.id, scopes}).accessToken;
  std::string header;
  fuzz::require(auth::decodeBase64UrlStrict(harness->realToken.substr(0, harness->realToken.find('.')), header),
                "the real token's header decodes");
  harness->realHeaderJson = header;
  const std::size_t firstDot = harness->realToken.find('.');
  const std::size_t secondDot = harness->realToken.find('.', firstDot + 1);
  fuzz::require(auth::decodeBase64UrlStrict(harness->realToken.substr(firstDot + 1, secondDot - firstDot - 1),
                                            harness->realPayloadJson),
                "the real token's payload decodes");
  fuzz::require(header.starts_with(R"({"alg":"ES256",)"), "the real token is ES256", header);
  fuzz::harness = harness;
  // libFuzzer ends a run with exit(): remove the fixture's temporary directory then.
  std::atexit([] { delete fuzz::harness; });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace codepayload;
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0: {
      const std::string value = "Bearer " + std::string(text);
      fuzz::checkExactTokenOnly({value}, text);
      fuzz::checkVerifierAlone(text);
      break;
    }
    case 1: {
      const std::string substituted = fuzz::replaceTokenPlaceholder(text);
      fuzz::checkExactTokenOnly(fuzz::splitValues(substituted), substituted);
      break;
    }
    case 2: {
      const std::string token = fuzz::applyEdits(text);
      const std::string value = "Bearer " + token;
      fuzz::checkExactTokenOnly({value}, token);
      fuzz::checkVerifierAlone(token);
      break;
    }
    default: {
      const fuzz::AuthFuzzFixture& fixture = fuzz::harness->fixture;
      fuzz::checkResigned(text, (data[0] & 4) != 0 ? fixture.rsaKey() : fixture.ecKey());
    }
  }
  return 0;
}
