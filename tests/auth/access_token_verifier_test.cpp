// JW-* and the token-level BA-* rows: forged, tampered, expired, misdirected
// tokens against AccessTokenVerifier.
#include "auth/access_token_verifier.h"

#include <Poco/JWT/Token.h>
#include <gtest/gtest.h>

#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <tuple>

#include "auth/base64.h"
#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

using testing::JwsSignatureOptions;
using testing::kTestEpoch;
using testing::signHs256;
using testing::signJws;

constexpr std::int64_t kNow = kTestEpoch + 100;

// The keys one run of the tests uses: every test runs for an EC (ES256) and
// an RSA (RS256) active key.
struct KeyCase {
  SigningAlgorithm algorithm;
  const SigningKey& key;        // the active key of keysFor(algorithm)
  const SigningKey& other;      // same algorithm, not in the set
  const SigningKey& otherKind;  // the other algorithm, not in the set
};

KeyCase keyCase(SigningAlgorithm algorithm) {
  return {algorithm, testing::sharedTestKey(algorithm), testing::otherTestKey(algorithm),
          testing::sharedTestKey(testing::otherAlgorithm(algorithm))};
}

// Raw JSON members, in order; a member without value is removed.
struct Member {
  std::string name;
  std::optional<std::string> value;
};
using Members = std::vector<Member>;

std::string object(const Members& defaults, const Members& changes) {
  Members members = defaults;
  for (const Member& change : changes) {
    bool replaced = false;
    for (Member& member : members) {
      if (member.name == change.name) {
        member.value = change.value;
        replaced = true;
      }
    }
    if (!replaced) members.push_back(change);
  }
  std::string json = "{";
  for (const auto& [name, value] : members) {
    if (!value) continue;
    if (json.size() > 1) json.push_back(',');
    json += "\"" + name + "\":" + *value;
  }
  return json + "}";
}

std::string jsonText(std::string_view text) { return "\"" + std::string(text) + "\""; }

// {"alg":<the key's algorithm>,"typ":"at+jwt","kid":<the key's kid>} with changes.
std::string header(const SigningKey& key, const Members& changes = {}) {
  return object({{"alg", jsonText(key.algorithmName())}, {"typ", jsonText("at+jwt")}, {"kid", jsonText(key.kid())}},
                changes);
}

std::string header(const KeyCase& k, const Members& changes = {}) { return header(k.key, changes); }

std::string payload(const Members& changes = {}) {
  return object({{"iss", jsonText("urn:codepayload:token-service")},
                 {"sub", jsonText("org_0123456789abcdef")},
                 {"aud", jsonText("urn:codepayload:api")},
                 {"client_id", jsonText("svc_client_AbCdEfGhIjKlMnOpQrStUvWx")},
                 {"scope", jsonText("write:codes")},
                 {"iat", std::to_string(kTestEpoch)},
                 {"nbf", std::to_string(kTestEpoch)},
                 {"exp", std::to_string(kTestEpoch + 3600)},
                 {"jti", jsonText("jti-0123456789")}},
                changes);
}

std::string valid(const KeyCase& k) { return signJws(header(k), payload(), k.key); }

// A key set with only the shared key of `algorithm`.
const SigningKeySet& keysFor(SigningAlgorithm algorithm) {
  static const SigningKeySet ec(testing::sharedTestKey(SigningAlgorithm::ES256));
  static const SigningKeySet rsa(testing::sharedTestKey(SigningAlgorithm::RS256));
  return algorithm == SigningAlgorithm::ES256 ? ec : rsa;
}

TokenRejection verify(const KeyCase& k, const std::string& token, std::int64_t now = kNow) {
  const AccessTokenVerifier verifier(keysFor(k.algorithm), TokenSettings{});
  AccessTokenClaims claims;
  return verifier.verify(token, now, claims);
}

class AccessTokenVerifierTest : public ::testing::TestWithParam<SigningAlgorithm> {
 protected:
  KeyCase k = keyCase(GetParam());
};

INSTANTIATE_TEST_SUITE_P(Algorithms, AccessTokenVerifierTest, testing::kBothAlgorithms, testing::algorithmTestName);

TEST_P(AccessTokenVerifierTest, AcceptsAValidTokenAndReturnsItsClaims) {
  const AccessTokenVerifier verifier(keysFor(GetParam()), TokenSettings{});
  AccessTokenClaims claims;
  ASSERT_EQ(verifier.verify(valid(k), kNow, claims), TokenRejection::None);
  EXPECT_EQ(claims.organizationId, "org_0123456789abcdef");
  EXPECT_EQ(claims.clientId, "svc_client_AbCdEfGhIjKlMnOpQrStUvWx");
  EXPECT_EQ(claims.scope, "write:codes");
  EXPECT_EQ(claims.jwtId, "jti-0123456789");
  EXPECT_EQ(claims.issuedAt, kTestEpoch);
  EXPECT_EQ(claims.expiresAt, kTestEpoch + 3600);
}

TEST_P(AccessTokenVerifierTest, LeavesClaimsUntouchedOnRejection) {
  const AccessTokenVerifier verifier(keysFor(GetParam()), TokenSettings{});
  AccessTokenClaims claims;
  claims.clientId = "untouched";
  EXPECT_EQ(verifier.verify(valid(k), kTestEpoch + 3600 + 31, claims), TokenRejection::Expired);
  EXPECT_EQ(claims.clientId, "untouched");
}

struct Forged {
  const char* name;
  std::function<std::string(const KeyCase&)> token;  // built when the test runs, not at registration
  TokenRejection expected;
};

// gtest shows a row by its name.
void PrintTo(const Forged& forged, std::ostream* out) { *out << forged.name; }

class AccessTokenVerifierTable : public ::testing::TestWithParam<std::tuple<SigningAlgorithm, Forged>> {};

TEST_P(AccessTokenVerifierTable, Rejection) {
  const auto& [algorithm, forged] = GetParam();
  const KeyCase k = keyCase(algorithm);
  EXPECT_EQ(tokenRejectionName(verify(k, forged.token(k))), tokenRejectionName(forged.expected));
}

std::string segment(std::string_view json) { return encodeBase64Url(json); }

// The valid token with its signature segment replaced by `change(signature)`.
std::string withSignature(const KeyCase& k, const std::function<std::string(std::string)>& change) {
  const std::string token = valid(k);
  const std::size_t dot = token.rfind('.');
  return token.substr(0, dot + 1) + change(token.substr(dot + 1));
}

// The valid token with its decoded signature bytes replaced by `change(bytes)`.
std::string withSignatureBytes(const KeyCase& k, const std::function<std::string(std::string)>& change) {
  return withSignature(k, [&change](const std::string& text) {
    std::string bytes;
    EXPECT_TRUE(decodeBase64UrlStrict(text, bytes));
    return encodeBase64Url(change(bytes));
  });
}

// A signature segment whose text contains '-' or '_' (retries until one does).
std::string validWithUrlCharacters(const KeyCase& k) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string token = signJws(header(k), payload({{"jti", jsonText("j" + std::to_string(attempt))}}), k.key);
    const std::string signature = token.substr(token.rfind('.') + 1);
    if (signature.find_first_of("-_") != std::string::npos) return token;
  }
  return {};
}

std::string nested(int depth) {
  return std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']');
}

// A valid token with a "pad" claim as long as possible without passing 4096
// characters (`overTheCap`: one character more of pad), made without signing
// first: the length of every segment is known in advance.
std::string tokenAtTheCap(const KeyCase& k, bool overTheCap) {
  const auto encodedLength = [](std::size_t bytes) { return (bytes * 8 + 5) / 6; };
  const std::size_t fixed = encodedLength(header(k).size()) + 2 + encodedLength(k.key.signatureSize());
  std::size_t pad = 0;
  while (fixed + encodedLength(payload({{"pad", jsonText(std::string(pad + 1, 'p'))}}).size()) <=
         kMaxAccessTokenLength) {
    ++pad;
  }
  return signJws(header(k), payload({{"pad", jsonText(std::string(overTheCap ? pad + 1 : pad, 'p'))}}), k.key);
}

// Pieces of one valid token per algorithm, made on first use (not at test registration).
struct ValidParts {
  std::string good;
  std::string firstTwo;
  std::string headerSegment;
  std::string payloadSegment;
  std::string signatureSegment;
  std::string standardAlphabet;
  std::string publicPem;
};

ValidParts makeParts(const KeyCase& k) {
  ValidParts p;
  p.good = valid(k);
  p.firstTwo = p.good.substr(0, p.good.rfind('.'));
  p.headerSegment = p.good.substr(0, p.good.find('.'));
  p.payloadSegment = p.firstTwo.substr(p.firstTwo.find('.') + 1);
  p.signatureSegment = p.good.substr(p.good.rfind('.') + 1);
  const std::string urlToken = validWithUrlCharacters(k);
  p.standardAlphabet = urlToken;
  for (std::size_t index = urlToken.rfind('.'); index < p.standardAlphabet.size(); ++index) {
    if (p.standardAlphabet[index] == '-') p.standardAlphabet[index] = '+';
    if (p.standardAlphabet[index] == '_') p.standardAlphabet[index] = '/';
  }
  p.publicPem = k.key.publicKeyPem();
  return p;
}

const ValidParts& parts(const KeyCase& k) {
  static const ValidParts ec = makeParts(keyCase(SigningAlgorithm::ES256));
  static const ValidParts rsa = makeParts(keyCase(SigningAlgorithm::RS256));
  return k.algorithm == SigningAlgorithm::ES256 ? ec : rsa;
}

// "RS" or "ES", the family of the key's algorithm, for RS384/ES512-style names.
std::string family(const KeyCase& k) { return k.key.algorithmName().substr(0, 2); }

std::string lowerCase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::vector<Forged> forgedTokens() {
  return {
      // JW-01: alg none in every spelling, with and without a signature.
      {"JW01_noneEmptySignature",
       [](const KeyCase& k) {
         return std::string(segment(header(k, {{"alg", jsonText("none")}})) + "." + parts(k).payloadSegment + ".");
       },
       TokenRejection::Malformed},
      {"JW01_none",
       [](const KeyCase& k) {
         return std::string(segment(header(k, {{"alg", jsonText("none")}})) + "." + parts(k).payloadSegment + "." +
                            parts(k).signatureSegment);
       },
       TokenRejection::BadHeader},
      {"JW01_None",
       [](const KeyCase& k) {
         return std::string(segment(header(k, {{"alg", jsonText("None")}})) + "." + parts(k).payloadSegment + "." +
                            parts(k).signatureSegment);
       },
       TokenRejection::BadHeader},
      {"JW01_NONE",
       [](const KeyCase& k) {
         return std::string(segment(header(k, {{"alg", jsonText("NONE")}})) + "." + parts(k).payloadSegment + "." +
                            parts(k).signatureSegment);
       },
       TokenRejection::BadHeader},
      {"JW01_nOnE",
       [](const KeyCase& k) {
         return std::string(segment(header(k, {{"alg", jsonText("nOnE")}})) + "." + parts(k).payloadSegment + "." +
                            parts(k).signatureSegment);
       },
       TokenRejection::BadHeader},
      // JW-02/JW-03: HMAC keyed with the public key (PEM, JWK) and with anything.
      {"JW02_hs256PublicPem",
       [](const KeyCase& k) {
         return std::string(signHs256(header(k, {{"alg", jsonText("HS256")}}), payload(), parts(k).publicPem));
       },
       TokenRejection::BadHeader},
      {"JW02_hs256PublicJwk",
       [](const KeyCase& k) {
         return std::string(signHs256(header(k, {{"alg", jsonText("HS256")}}), payload(), k.key.publicJwk()));
       },
       TokenRejection::BadHeader},
      {"JW03_hs256",
       [](const KeyCase& k) {
         return std::string(signHs256(header(k, {{"alg", jsonText("HS256")}}), payload(), "secret"));
       },
       TokenRejection::BadHeader},
      {"JW03_algLowerCase",
       [](const KeyCase& k) {
         return std::string(
             signJws(header(k, {{"alg", jsonText(lowerCase(k.key.algorithmName()))}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      // JW-04: other algorithms with a correct signature of their own.
      {"JW04_sha384OfTheFamily",  // RS384, or ES384 (signed on P-256, as Poco would)
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"alg", jsonText(family(k) + "384")}}), payload(), k.key,
                                    JwsSignatureOptions{.digest = "SHA384"}));
       },
       TokenRejection::BadHeader},
      {"JW04_sha512OfTheFamily",  // RS512, or ES512
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"alg", jsonText(family(k) + "512")}}), payload(), k.key,
                                    JwsSignatureOptions{.digest = "SHA512"}));
       },
       TokenRejection::BadHeader},
      {"JW04_ps256",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"alg", jsonText("PS256")}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      // JW-16: the other supported algorithm with this key's kid (ES256 with an
      // RSA kid, RS256 with an EC kid), signed by this key or as that algorithm.
      {"JW16_otherAlgorithmWithThisKid",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"alg", jsonText(k.otherKind.algorithmName())}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      {"JW16_otherAlgorithmSignedAsThatAlgorithm",
       [](const KeyCase& k) {
         return std::string(
             signJws(header(k, {{"alg", jsonText(k.otherKind.algorithmName())}}), payload(), k.otherKind));
       },
       TokenRejection::BadHeader},
      {"ownAlgorithmSignedWithSha512",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload(), k.key, JwsSignatureOptions{.digest = "SHA512"}));
       },
       TokenRejection::BadSignature},
      // JW-05: missing segments.
      {"JW05_signatureStripped", [](const KeyCase& k) { return std::string(parts(k).firstTwo + "."); },
       TokenRejection::Malformed},
      {"JW05_twoSegments", [](const KeyCase& k) { return std::string(parts(k).firstTwo); }, TokenRejection::Malformed},
      {"JW05_emptyPayload",
       [](const KeyCase& k) { return std::string(parts(k).headerSegment + ".." + parts(k).signatureSegment); },
       TokenRejection::Malformed},
      {"JW05_emptyHeader",
       [](const KeyCase& k) { return std::string("." + parts(k).payloadSegment + "." + parts(k).signatureSegment); },
       TokenRejection::Malformed},
      {"oneSegment", [](const KeyCase& k) { return std::string(parts(k).headerSegment); }, TokenRejection::Malformed},
      // JW-06: extra segments.
      {"JW06_fourSegments", [](const KeyCase& k) { return std::string(parts(k).good + ".x"); },
       TokenRejection::Malformed},
      {"JW06_fiveSegments", [](const KeyCase& k) { return std::string(parts(k).good + ".a.b"); },
       TokenRejection::Malformed},
      // JW-07: other spellings of the same signature.
      {"JW07_onePad", [](const KeyCase& k) { return std::string(parts(k).good + "="); }, TokenRejection::Malformed},
      {"JW07_twoPads", [](const KeyCase& k) { return std::string(parts(k).good + "=="); }, TokenRejection::Malformed},
      {"JW07_unusedBitsSet",
       [](const KeyCase& k) {
         return std::string(withSignature(k, [](std::string signature) {
           // 64 or 256 bytes -> 86 or 342 characters; the last one carries 4 unused bits.
           signature.back() = signature.back() == 'A' ? 'B' : static_cast<char>(signature.back() ^ 1);
           return signature;
         }));
       },
       TokenRejection::Malformed},
      {"JW07_standardAlphabet", [](const KeyCase& k) { return std::string(parts(k).standardAlphabet); },
       TokenRejection::Malformed},
      {"JW07_whitespace",
       [](const KeyCase& k) {
         return std::string(withSignature(k, [](std::string signature) { return signature.insert(10, " "); }));
       },
       TokenRejection::Malformed},
      {"JW07_newline",
       [](const KeyCase& k) {
         return std::string(withSignature(k, [](std::string signature) { return signature.insert(10, "\n"); }));
       },
       TokenRejection::Malformed},
      {"JW07_truncatedSignature",
       [](const KeyCase& k) {
         return std::string(
             withSignature(k, [](std::string signature) { return signature.substr(0, signature.size() - 2); }));
       },
       TokenRejection::BadSignature},
      // The signature must be exactly the key's size (64 bytes for ES256, the
      // modulus size for RS256) before Poco sees it.
      {"signatureOneByteShort",
       [](const KeyCase& k) {
         return std::string(withSignatureBytes(k, [](std::string bytes) { return bytes.substr(1); }));
       },
       TokenRejection::BadSignature},
      {"signatureOneByteLong",
       [](const KeyCase& k) {
         return std::string(withSignatureBytes(k, [](std::string bytes) { return bytes.insert(0, 1, '\0'); }));
       },
       TokenRejection::BadSignature},
      {"signatureDoubled",
       [](const KeyCase& k) {
         return std::string(withSignatureBytes(k, [](std::string bytes) { return bytes + bytes; }));
       },
       TokenRejection::BadSignature},
      {"signatureOneByte",
       [](const KeyCase& k) {
         return std::string(withSignatureBytes(k, [](std::string bytes) { return bytes.substr(0, 1); }));
       },
       TokenRejection::BadSignature},
      {"signatureAllZeros",
       [](const KeyCase& k) {
         return std::string(withSignatureBytes(k, [](std::string bytes) { return std::string(bytes.size(), '\0'); }));
       },
       TokenRejection::BadSignature},
      {"signatureOfTheOtherAlgorithmsSize",
       [](const KeyCase& k) { return std::string(signJws(header(k), payload(), k.otherKind)); },
       TokenRejection::BadSignature},
      // JW-08: header or payload changed, signature kept.
      {"JW08_payloadChanged",
       [](const KeyCase& k) {
         return std::string(parts(k).headerSegment + "." +
                            segment(payload({{"scope", jsonText("write:codes admin")}})) + "." +
                            parts(k).signatureSegment);
       },
       TokenRejection::BadSignature},
      {"JW08_headerChanged",
       [](const KeyCase& k) {
         return std::string(segment(header(k, {{"typ", jsonText("application/at+jwt")}})) + "." +
                            parts(k).payloadSegment + "." + parts(k).signatureSegment);
       },
       TokenRejection::BadSignature},
      {"JW08_otherKeySameKid", [](const KeyCase& k) { return std::string(signJws(header(k), payload(), k.other)); },
       TokenRejection::BadSignature},
      // JW-09: kid tricks.
      {"JW09_unknownKid",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"kid", jsonText("unknown")}}), payload(), k.key));
       },
       TokenRejection::UnknownKey},
      {"JW09_missingKid",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"kid", std::nullopt}}), payload(), k.key));
       },
       TokenRejection::UnknownKey},
      {"JW09_pathKid",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"kid", jsonText("../../../../dev/null")}}), payload(), k.key));
       },
       TokenRejection::UnknownKey},
      {"JW09_sqlKid",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"kid", jsonText("' OR '1'='1")}}), payload(), k.key));
       },
       TokenRejection::UnknownKey},
      {"JW09_hugeKid",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"kid", jsonText(std::string(4096, 'k'))}}), payload(), k.key));
       },
       TokenRejection::TooLong},
      {"JW09_numberKid",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"kid", "7"}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      {"JW09_objectKid",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"kid", "{}"}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      {"JW09_nulKid",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"kid", jsonText(k.key.kid() + "\\u0000")}}), payload(), k.key));
       },
       TokenRejection::UnknownKey},
      // JW-10/JW-11: key-carrying and critical headers.
      {"JW10_jku",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"jku", jsonText("https://evil.example/jwks")}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      {"JW10_x5u",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"x5u", jsonText("https://evil.example/cert")}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      {"JW10_jwk",
       [](const KeyCase& k) {
         return std::string(
             signJws(header(k, {{"kid", jsonText(k.other.kid())}, {"jwk", k.other.publicJwk()}}), payload(), k.other));
       },
       TokenRejection::BadHeader},
      {"JW10_x5c",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"x5c", "[\"MIIB\"]"}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      {"JW11_crit",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"crit", "[\"foo\"]"}, {"foo", "1"}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      {"cty",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"cty", jsonText("JWT")}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      // JW-12: not objects, not UTF-8, too deep.
      {"JW12_headerArray", [](const KeyCase& k) { return std::string(signJws("[1]", payload(), k.key)); },
       TokenRejection::Malformed},
      {"JW12_headerString", [](const KeyCase& k) { return std::string(signJws("\"RS256\"", payload(), k.key)); },
       TokenRejection::Malformed},
      {"JW12_payloadArray", [](const KeyCase& k) { return std::string(signJws(header(k), "[]", k.key)); },
       TokenRejection::Malformed},
      {"JW12_payloadString", [](const KeyCase& k) { return std::string(signJws(header(k), "\"x\"", k.key)); },
       TokenRejection::Malformed},
      {"JW12_payloadNotJson", [](const KeyCase& k) { return std::string(signJws(header(k), "{", k.key)); },
       TokenRejection::Malformed},
      {"JW12_invalidUtf8",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"scope", "\"write:codes\xff\""}}), k.key));
       },
       TokenRejection::Malformed},
      {"JW12_deepNesting",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"extra", nested(200)}}), k.key));
       },
       TokenRejection::Malformed},
      {"JW12_headerDeepNesting",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"x", nested(200)}}), payload(), k.key));
       },
       TokenRejection::Malformed},
      {"modestNestingInAnUnknownClaim",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"extra", nested(20)}}), k.key));
       },
       TokenRejection::None},
      {"JW12_trailingGarbage", [](const KeyCase& k) { return std::string(signJws(header(k), payload() + "x", k.key)); },
       TokenRejection::Malformed},
      // JW-13: duplicate members.
      {"JW13_duplicateScope",
       [](const KeyCase& k) {
         return std::string(signJws(
             header(k), payload({{"scope", jsonText("read:codes")}}).insert(1, R"("scope":"write:codes",)"), k.key));
       },
       TokenRejection::Malformed},
      {"JW13_duplicateAlg",
       [](const KeyCase& k) {
         return std::string(signJws(header(k).insert(1, R"("alg":"RS256",)"), payload(), k.key));
       },
       TokenRejection::Malformed},
      // JW-14: claims of the wrong type or shape.
      {"JW14_issNumber",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"iss", "1"}}), k.key));
       },
       TokenRejection::Malformed},
      {"JW14_subObject",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"sub", "{}"}}), k.key));
       },
       TokenRejection::Malformed},
      {"JW14_clientIdArray",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"client_id", "[\"svc_client_x\"]"}}), k.key));
       },
       TokenRejection::Malformed},
      {"subNotAnOrganization",
       [](const KeyCase& k) {
         return std::string(
             signJws(header(k), payload({{"sub", jsonText("svc_client_AbCdEfGhIjKlMnOpQrStUvWx")}}), k.key));
       },
       TokenRejection::Malformed},
      {"clientIdNotAClient",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"client_id", jsonText("svc_client_")}}), k.key));
       },
       TokenRejection::Malformed},
      {"missingJti",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"jti", std::nullopt}}), k.key));
       },
       TokenRejection::Malformed},
      {"emptyJti",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"jti", jsonText("")}}), k.key));
       },
       TokenRejection::Malformed},
      {"missingIss",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"iss", std::nullopt}}), k.key));
       },
       TokenRejection::Malformed},
      {"missingAud",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"aud", std::nullopt}}), k.key));
       },
       TokenRejection::Malformed},
      {"missingIat",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"iat", std::nullopt}}), k.key));
       },
       TokenRejection::Malformed},
      {"scopeArray",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"scope", "[\"write:codes\"]"}}), k.key));
       },
       TokenRejection::Malformed},
      {"expNotAfterIat",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"exp", std::to_string(kTestEpoch)}}), k.key));
       },
       TokenRejection::Malformed},
      // JW-15: a retired key, and a published one.
      {"JW15_retiredKey",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"kid", jsonText(k.other.kid())}}), payload(), k.other));
       },
       TokenRejection::UnknownKey},
      // JW-17: structurally valid but 7 KiB.
      {"JW17_sevenKiB",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"pad", jsonText(std::string(5000, 'p'))}}), k.key));
       },
       TokenRejection::TooLong},
      {"justUnderTheCap", [](const KeyCase& k) { return tokenAtTheCap(k, false); }, TokenRejection::None},
      {"justOverTheCap", [](const KeyCase& k) { return tokenAtTheCap(k, true); }, TokenRejection::TooLong},
      // BA-11..BA-14: time claims.
      {"BA11_expiredBeyondLeeway",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"exp", std::to_string(kNow - 31)}}), k.key));
       },
       TokenRejection::Expired},
      {"BA12_expiredWithinLeeway",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"exp", std::to_string(kNow - 30 + 5)}}), k.key));
       },
       TokenRejection::None},
      {"expiredExactlyAtLeeway",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"exp", std::to_string(kNow - 30)}}), k.key));
       },
       TokenRejection::None},
      {"BA13_nbfInFuture",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"nbf", std::to_string(kNow + 30 + 5)}}), k.key));
       },
       TokenRejection::NotYetValid},
      {"nbfWithinLeeway",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"nbf", std::to_string(kNow + 30)}}), k.key));
       },
       TokenRejection::None},
      {"BA13_iatInFuture",
       [](const KeyCase& k) {
         return std::string(signJws(
             header(k),
             payload(
                 {{"iat", std::to_string(kNow + 600)}, {"nbf", std::nullopt}, {"exp", std::to_string(kNow + 4200)}}),
             k.key));
       },
       TokenRejection::NotYetValid},
      {"nbfAbsent",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"nbf", std::nullopt}}), k.key));
       },
       TokenRejection::None},
      {"BA14_expMissing",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"exp", std::nullopt}}), k.key));
       },
       TokenRejection::Malformed},
      {"BA14_expString",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"exp", jsonText("9999999999")}}), k.key));
       },
       TokenRejection::Malformed},
      {"BA14_expHugeDouble",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"exp", "1e300"}}), k.key));
       },
       TokenRejection::Malformed},
      {"BA14_expNegative",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"exp", "-1"}}), k.key));
       },
       TokenRejection::Malformed},
      {"BA14_expFraction",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"exp", std::to_string(kTestEpoch + 3600) + ".5"}}), k.key));
       },
       TokenRejection::Malformed},
      {"BA14_expBeyond2To53",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"exp", "9007199254740992"}}), k.key));
       },
       TokenRejection::Malformed},
      {"BA14_expBool",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"exp", "true"}}), k.key));
       },
       TokenRejection::Malformed},
      {"BA14_nbfString",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"nbf", jsonText("0")}}), k.key));
       },
       TokenRejection::Malformed},
      // BA-21: audience.
      {"BA21_otherAudience",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"aud", jsonText("https://other-api")}}), k.key));
       },
       TokenRejection::WrongAudience},
      {"BA21_arrayWithoutUs",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"aud", "[\"https://other-api\"]"}}), k.key));
       },
       TokenRejection::WrongAudience},
      {"BA21_emptyAudience",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"aud", jsonText("")}}), k.key));
       },
       TokenRejection::WrongAudience},
      {"BA21_emptyArray",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"aud", "[]"}}), k.key));
       },
       TokenRejection::WrongAudience},
      {"BA21_arrayWithUs",
       [](const KeyCase& k) {
         return std::string(
             signJws(header(k), payload({{"aud", "[\"https://other-api\",\"urn:codepayload:api\"]"}}), k.key));
       },
       TokenRejection::None},
      {"BA21_arrayWithNumber",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"aud", "[\"urn:codepayload:api\",1]"}}), k.key));
       },
       TokenRejection::Malformed},
      {"BA21_audNumber",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"aud", "1"}}), k.key));
       },
       TokenRejection::Malformed},
      // BA-22: typ.
      {"BA22_typJwt",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"typ", jsonText("JWT")}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      {"BA22_typMissing",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"typ", std::nullopt}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      {"BA22_typApplicationAtJwt",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"typ", jsonText("application/at+jwt")}}), payload(), k.key));
       },
       TokenRejection::None},
      {"BA22_typUpperCase",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"typ", jsonText("AT+JWT")}}), payload(), k.key));
       },
       TokenRejection::None},
      {"BA22_typIdToken",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"typ", jsonText("id_token+jwt")}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      {"algMissing",
       [](const KeyCase& k) {
         return std::string(signJws(header(k, {{"alg", std::nullopt}}), payload(), k.key));
       },
       TokenRejection::BadHeader},
      // BA-23: issuer, exactly.
      {"BA23_issuerTrailingSlash",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"iss", jsonText("urn:codepayload:token-service/")}}), k.key));
       },
       TokenRejection::WrongIssuer},
      {"BA23_stagingIssuer",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"iss", jsonText("urn:codepayload:staging")}}), k.key));
       },
       TokenRejection::WrongIssuer},
      {"issuerCase",
       [](const KeyCase& k) {
         return std::string(signJws(header(k), payload({{"iss", jsonText("URN:codepayload:token-service")}}), k.key));
       },
       TokenRejection::WrongIssuer},
      {"empty", [](const KeyCase&) { return std::string(""); }, TokenRejection::Malformed},
      {"garbage", [](const KeyCase&) { return std::string("not-a-token"); }, TokenRejection::Malformed},
  };
}

INSTANTIATE_TEST_SUITE_P(Tokens, AccessTokenVerifierTable,
                         ::testing::Combine(testing::kBothAlgorithms, ::testing::ValuesIn(forgedTokens())),
                         [](const auto& row) {
                           return std::string(std::get<1>(row.param).name) + "_" +
                                  std::string(signingAlgorithmName(std::get<0>(row.param)));
                         });

TEST_P(AccessTokenVerifierTest, AcceptsTokensOfPublishedKeysOfEitherAlgorithm) {
  // JW-15: the next (or previous) key in the set verifies, EC or RSA, with
  // its own algorithm; removed, it does not.
  const SigningKeySet withPublished(k.key, {k.other, k.otherKind});
  const AccessTokenVerifier verifier(withPublished, TokenSettings{});
  for (const SigningKey* published : {&k.other, &k.otherKind}) {
    const std::string token = signJws(header(*published), payload(), *published);
    AccessTokenClaims claims;
    EXPECT_EQ(verifier.verify(token, kNow, claims), TokenRejection::None) << published->algorithmName();
    EXPECT_EQ(verify(k, token), TokenRejection::UnknownKey) << published->algorithmName();
  }
}

TEST_P(AccessTokenVerifierTest, TheAlgorithmMustBeTheOneOfTheKidsKey) {
  // JW-16 with both keys in the set: ES256 with the RSA kid and RS256 with
  // the EC kid are refused whichever key signed; each key's own algorithm passes.
  const SigningKeySet both(k.key, {k.otherKind});
  const AccessTokenVerifier verifier(both, TokenSettings{});
  AccessTokenClaims claims;
  for (const SigningKey* named : {&k.key, &k.otherKind}) {
    const SigningKey& otherKind = named == &k.key ? k.otherKind : k.key;
    for (const SigningKey* signer : {named, &otherKind}) {
      const std::string token =
          signJws(header(*named, {{"alg", jsonText(otherKind.algorithmName())}}), payload(), *signer);
      EXPECT_EQ(verifier.verify(token, kNow, claims), TokenRejection::BadHeader)
          << "kid of " << named->algorithmName() << ", signed by " << signer->algorithmName();
    }
    EXPECT_EQ(verifier.verify(signJws(header(*named), payload(), *named), kNow, claims), TokenRejection::None);
  }
}

TEST(AccessTokenVerifier, RefusesADerEncodedEs256Signature) {
  // RFC 7518 §3.4: R||S, not the DER ECDSA-Sig-Value (70 to 72 bytes) OpenSSL produces.
  const KeyCase k = keyCase(SigningAlgorithm::ES256);
  const std::string der = signJws(header(k), payload(), k.key, JwsSignatureOptions{.derEcdsa = true});
  std::string signature;
  ASSERT_TRUE(decodeBase64UrlStrict(der.substr(der.rfind('.') + 1), signature));
  EXPECT_GE(signature.size(), 70u);
  EXPECT_EQ(verify(k, der), TokenRejection::BadSignature);
}

TEST(AccessTokenVerifier, RefusesTheHighSSpellingOfAnEs256Signature) {
  // (R, S) and (R, n - S) both verify as ECDSA; only S <= n/2 is accepted, so
  // a token has one spelling. Every high-S twin is a signature Poco itself
  // accepts, so the refusal is the low-S rule's.
  const KeyCase k = keyCase(SigningAlgorithm::ES256);
  for (int signing = 0; signing < 16; ++signing) {
    const std::string low = signJws(header(k), payload(), k.key);
    const std::string high = signJws(header(k), payload(), k.key, JwsSignatureOptions{.ecdsaS = testing::EcdsaS::High});
    ASSERT_EQ(low.substr(0, low.rfind('.')), high.substr(0, high.rfind('.')));
    EXPECT_NE(low.substr(low.rfind('.')), high.substr(high.rfind('.')));
    Poco::JWT::Token parsed;
    EXPECT_TRUE(k.key.signer().tryVerify(high, parsed)) << signing;
    EXPECT_EQ(verify(k, low), TokenRejection::None) << signing;
    EXPECT_EQ(verify(k, high), TokenRejection::BadSignature) << signing;
  }
}

TEST_P(AccessTokenVerifierTest, UsesTheConfiguredIssuerAudienceAndLeeway) {
  TokenSettings settings;
  settings.issuer = "https://auth.example";
  settings.audience = "https://api.example";
  settings.leewaySeconds = 0;
  const AccessTokenVerifier verifier(keysFor(GetParam()), settings);
  AccessTokenClaims claims;
  const std::string token = signJws(
      header(k), payload({{"iss", jsonText("https://auth.example")}, {"aud", jsonText("https://api.example")}}), k.key);
  EXPECT_EQ(verifier.verify(token, kTestEpoch + 3600, claims), TokenRejection::None);
  EXPECT_EQ(verifier.verify(token, kTestEpoch + 3601, claims), TokenRejection::Expired);
  EXPECT_EQ(verifier.verify(valid(k), kNow, claims), TokenRejection::WrongIssuer);
}

TEST(ScopeContains, MatchesWholeSpaceDelimitedTokensExactly) {
  // BA-16.
  EXPECT_TRUE(scopeContains("write:codes", "write:codes"));
  EXPECT_TRUE(scopeContains("read:codes write:codes", "write:codes"));
  EXPECT_TRUE(scopeContains("write:codes read:codes", "write:codes"));
  EXPECT_FALSE(scopeContains("WRITE:CODES", "write:codes"));
  EXPECT_FALSE(scopeContains("write:codes2", "write:codes"));
  EXPECT_FALSE(scopeContains("xwrite:codes", "write:codes"));
  EXPECT_FALSE(scopeContains(" write:codes ", "write:codes"));
  EXPECT_FALSE(scopeContains("read:codes  write:codes", "write:codes"));
  EXPECT_FALSE(scopeContains("write:codes\tread:codes", "write:codes"));
  EXPECT_FALSE(scopeContains("", "write:codes"));
  EXPECT_FALSE(scopeContains("read:codes", "write:codes"));
  EXPECT_FALSE(scopeContains("write:codes", ""));
  // A list with an entry that is not a scope token matches nothing.
  EXPECT_FALSE(scopeContains("write:codes caf\xc3\xa9", "write:codes"));
  EXPECT_FALSE(scopeContains("write:codes a\"b", "write:codes"));
}

TEST(TokenRejectionName, NamesEveryRejection) {
  EXPECT_EQ(tokenRejectionName(TokenRejection::None), "none");
  EXPECT_EQ(tokenRejectionName(TokenRejection::TooLong), "tooLong");
  EXPECT_EQ(tokenRejectionName(TokenRejection::Malformed), "malformed");
  EXPECT_EQ(tokenRejectionName(TokenRejection::BadHeader), "badHeader");
  EXPECT_EQ(tokenRejectionName(TokenRejection::UnknownKey), "unknownKey");
  EXPECT_EQ(tokenRejectionName(TokenRejection::BadSignature), "badSignature");
  EXPECT_EQ(tokenRejectionName(TokenRejection::WrongIssuer), "wrongIssuer");
  EXPECT_EQ(tokenRejectionName(TokenRejection::WrongAudience), "wrongAudience");
  EXPECT_EQ(tokenRejectionName(TokenRejection::Expired), "expired");
  EXPECT_EQ(tokenRejectionName(TokenRejection::NotYetValid), "notYetValid");
}

}  // namespace
}  // namespace codepayload::auth
