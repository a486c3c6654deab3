// JW-* and the token-level BA-* rows: forged, tampered, expired, misdirected
// tokens against AccessTokenVerifier.
#include "server/auth/access_token_verifier.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>

#include "auth_test_support.h"
#include "server/auth/base64.h"

namespace codepayload::auth {
namespace {

using testing::kTestEpoch;
using testing::otherTestKey;
using testing::sharedTestKey;
using testing::signHs256;
using testing::signRs256;
using testing::signRsa;

constexpr std::int64_t kNow = kTestEpoch + 100;

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

std::string header(const Members& changes = {}) {
  return object({{"alg", jsonText("RS256")}, {"typ", jsonText("at+jwt")}, {"kid", jsonText(sharedTestKey().kid())}},
                changes);
}

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

std::string valid() { return signRs256(header(), payload(), sharedTestKey()); }

// A key set with the shared key active and the "next" key published.
const SigningKeySet& keys() {
  static const SigningKeySet set(sharedTestKey(), {});
  return set;
}

TokenRejection verify(const std::string& token, std::int64_t now = kNow) {
  const AccessTokenVerifier verifier(keys(), TokenSettings{});
  AccessTokenClaims claims;
  return verifier.verify(token, now, claims);
}

TEST(AccessTokenVerifier, AcceptsAValidTokenAndReturnsItsClaims) {
  const AccessTokenVerifier verifier(keys(), TokenSettings{});
  AccessTokenClaims claims;
  ASSERT_EQ(verifier.verify(valid(), kNow, claims), TokenRejection::None);
  EXPECT_EQ(claims.organisationId, "org_0123456789abcdef");
  EXPECT_EQ(claims.clientId, "svc_client_AbCdEfGhIjKlMnOpQrStUvWx");
  EXPECT_EQ(claims.scope, "write:codes");
  EXPECT_EQ(claims.jwtId, "jti-0123456789");
  EXPECT_EQ(claims.issuedAt, kTestEpoch);
  EXPECT_EQ(claims.expiresAt, kTestEpoch + 3600);
}

TEST(AccessTokenVerifier, LeavesClaimsUntouchedOnRejection) {
  const AccessTokenVerifier verifier(keys(), TokenSettings{});
  AccessTokenClaims claims;
  claims.clientId = "untouched";
  EXPECT_EQ(verifier.verify(valid(), kTestEpoch + 3600 + 31, claims), TokenRejection::Expired);
  EXPECT_EQ(claims.clientId, "untouched");
}

struct Forged {
  const char* name;
  std::function<std::string()> token;  // built when the test runs, not at registration
  TokenRejection expected;
};

class AccessTokenVerifierTable : public ::testing::TestWithParam<Forged> {};

TEST_P(AccessTokenVerifierTable, Rejection) {
  EXPECT_EQ(tokenRejectionName(verify(GetParam().token())), tokenRejectionName(GetParam().expected));
}

std::string segment(std::string_view json) { return encodeBase64Url(json); }

// The valid token with its signature segment replaced by `change(signature)`.
std::string withSignature(const std::function<std::string(std::string)>& change) {
  const std::string token = valid();
  const std::size_t dot = token.rfind('.');
  return token.substr(0, dot + 1) + change(token.substr(dot + 1));
}

// A signature segment whose text contains '-' or '_' (retries until one does).
std::string validWithUrlCharacters() {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string token =
        signRs256(header(), payload({{"jti", jsonText("j" + std::to_string(attempt))}}), sharedTestKey());
    const std::string signature = token.substr(token.rfind('.') + 1);
    if (signature.find_first_of("-_") != std::string::npos) return token;
  }
  return {};
}

std::string nested(int depth) {
  return std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']');
}

// Pieces of one valid token, made on first use (not at test registration).
struct ValidParts {
  std::string good;
  std::string firstTwo;
  std::string headerSegment;
  std::string payloadSegment;
  std::string signatureSegment;
  std::string standardAlphabet;
  std::string publicPem;
};

const ValidParts& parts() {
  static const ValidParts made = [] {
    ValidParts p;
    p.good = valid();
    p.firstTwo = p.good.substr(0, p.good.rfind('.'));
    p.headerSegment = p.good.substr(0, p.good.find('.'));
    p.payloadSegment = p.firstTwo.substr(p.firstTwo.find('.') + 1);
    p.signatureSegment = p.good.substr(p.good.rfind('.') + 1);
    const std::string urlToken = validWithUrlCharacters();
    p.standardAlphabet = urlToken;
    for (std::size_t index = urlToken.rfind('.'); index < p.standardAlphabet.size(); ++index) {
      if (p.standardAlphabet[index] == '-') p.standardAlphabet[index] = '+';
      if (p.standardAlphabet[index] == '_') p.standardAlphabet[index] = '/';
    }
    p.publicPem = sharedTestKey().publicKeyPem();
    return p;
  }();
  return made;
}

std::vector<Forged> forgedTokens() {
  return {
      // JW-01: alg none in every spelling, with and without a signature.
      {"JW01_noneEmptySignature",
       [] {
         return std::string(segment(header({{"alg", jsonText("none")}})) + "." + parts().payloadSegment + ".");
       },
       TokenRejection::Malformed},
      {"JW01_none",
       [] {
         return std::string(segment(header({{"alg", jsonText("none")}})) + "." + parts().payloadSegment + "." +
                            parts().signatureSegment);
       },
       TokenRejection::BadHeader},
      {"JW01_None",
       [] {
         return std::string(segment(header({{"alg", jsonText("None")}})) + "." + parts().payloadSegment + "." +
                            parts().signatureSegment);
       },
       TokenRejection::BadHeader},
      {"JW01_NONE",
       [] {
         return std::string(segment(header({{"alg", jsonText("NONE")}})) + "." + parts().payloadSegment + "." +
                            parts().signatureSegment);
       },
       TokenRejection::BadHeader},
      {"JW01_nOnE",
       [] {
         return std::string(segment(header({{"alg", jsonText("nOnE")}})) + "." + parts().payloadSegment + "." +
                            parts().signatureSegment);
       },
       TokenRejection::BadHeader},
      // JW-02/JW-03: HMAC keyed with the public key (PEM, JWK) and with anything.
      {"JW02_hs256PublicPem",
       [] {
         return std::string(signHs256(header({{"alg", jsonText("HS256")}}), payload(), parts().publicPem));
       },
       TokenRejection::BadHeader},
      {"JW02_hs256PublicJwk",
       [] {
         return std::string(signHs256(header({{"alg", jsonText("HS256")}}), payload(), sharedTestKey().publicJwk()));
       },
       TokenRejection::BadHeader},
      {"JW03_hs256",
       [] {
         return std::string(signHs256(header({{"alg", jsonText("HS256")}}), payload(), "secret"));
       },
       TokenRejection::BadHeader},
      {"JW03_rs256LowerCase",
       [] {
         return std::string(signRs256(header({{"alg", jsonText("rs256")}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      // JW-04: other algorithms with a correct signature of their own.
      {"JW04_rs384",
       [] {
         return std::string(signRsa(header({{"alg", jsonText("RS384")}}), payload(), sharedTestKey(), "RS384"));
       },
       TokenRejection::BadHeader},
      {"JW04_rs512",
       [] {
         return std::string(signRsa(header({{"alg", jsonText("RS512")}}), payload(), sharedTestKey(), "RS512"));
       },
       TokenRejection::BadHeader},
      {"JW04_ps256",
       [] {
         return std::string(signRs256(header({{"alg", jsonText("PS256")}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      {"JW16_es256WithRsaKid",
       [] {
         return std::string(signRs256(header({{"alg", jsonText("ES256")}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      {"rs256SignedWithRs512Digest", [] { return std::string(signRsa(header(), payload(), sharedTestKey(), "RS512")); },
       TokenRejection::BadSignature},
      // JW-05: missing segments.
      {"JW05_signatureStripped", [] { return std::string(parts().firstTwo + "."); }, TokenRejection::Malformed},
      {"JW05_twoSegments", [] { return std::string(parts().firstTwo); }, TokenRejection::Malformed},
      {"JW05_emptyPayload", [] { return std::string(parts().headerSegment + ".." + parts().signatureSegment); },
       TokenRejection::Malformed},
      {"JW05_emptyHeader", [] { return std::string("." + parts().payloadSegment + "." + parts().signatureSegment); },
       TokenRejection::Malformed},
      {"oneSegment", [] { return std::string(parts().headerSegment); }, TokenRejection::Malformed},
      // JW-06: extra segments.
      {"JW06_fourSegments", [] { return std::string(parts().good + ".x"); }, TokenRejection::Malformed},
      {"JW06_fiveSegments", [] { return std::string(parts().good + ".a.b"); }, TokenRejection::Malformed},
      // JW-07: other spellings of the same signature.
      {"JW07_onePad", [] { return std::string(parts().good + "="); }, TokenRejection::Malformed},
      {"JW07_twoPads", [] { return std::string(parts().good + "=="); }, TokenRejection::Malformed},
      {"JW07_unusedBitsSet",
       [] {
         return std::string(withSignature([](std::string signature) {
           // 256 bytes -> 342 characters; the last one carries 4 unused bits.
           signature.back() = signature.back() == 'A' ? 'B' : static_cast<char>(signature.back() ^ 1);
           return signature;
         }));
       },
       TokenRejection::Malformed},
      {"JW07_standardAlphabet", [] { return std::string(parts().standardAlphabet); }, TokenRejection::Malformed},
      {"JW07_whitespace",
       [] { return std::string(withSignature([](std::string signature) { return signature.insert(10, " "); })); },
       TokenRejection::Malformed},
      {"JW07_newline",
       [] { return std::string(withSignature([](std::string signature) { return signature.insert(10, "\n"); })); },
       TokenRejection::Malformed},
      {"JW07_truncatedSignature",
       [] { return std::string(withSignature([](std::string signature) { return signature.substr(0, 340); })); },
       TokenRejection::BadSignature},
      // JW-08: header or payload changed, signature kept.
      {"JW08_payloadChanged",
       [] {
         return std::string(parts().headerSegment + "." + segment(payload({{"scope", jsonText("write:codes admin")}})) +
                            "." + parts().signatureSegment);
       },
       TokenRejection::BadSignature},
      {"JW08_headerChanged",
       [] {
         return std::string(segment(header({{"typ", jsonText("application/at+jwt")}})) + "." + parts().payloadSegment +
                            "." + parts().signatureSegment);
       },
       TokenRejection::BadSignature},
      {"JW08_otherKeySameKid", [] { return std::string(signRs256(header(), payload(), otherTestKey())); },
       TokenRejection::BadSignature},
      // JW-09: kid tricks.
      {"JW09_unknownKid",
       [] {
         return std::string(signRs256(header({{"kid", jsonText("unknown")}}), payload(), sharedTestKey()));
       },
       TokenRejection::UnknownKey},
      {"JW09_missingKid",
       [] {
         return std::string(signRs256(header({{"kid", std::nullopt}}), payload(), sharedTestKey()));
       },
       TokenRejection::UnknownKey},
      {"JW09_pathKid",
       [] {
         return std::string(signRs256(header({{"kid", jsonText("../../../../dev/null")}}), payload(), sharedTestKey()));
       },
       TokenRejection::UnknownKey},
      {"JW09_sqlKid",
       [] {
         return std::string(signRs256(header({{"kid", jsonText("' OR '1'='1")}}), payload(), sharedTestKey()));
       },
       TokenRejection::UnknownKey},
      {"JW09_hugeKid",
       [] {
         return std::string(signRs256(header({{"kid", jsonText(std::string(4096, 'k'))}}), payload(), sharedTestKey()));
       },
       TokenRejection::TooLong},
      {"JW09_numberKid",
       [] {
         return std::string(signRs256(header({{"kid", "7"}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      {"JW09_objectKid",
       [] {
         return std::string(signRs256(header({{"kid", "{}"}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      {"JW09_nulKid",
       [] {
         return std::string(
             signRs256(header({{"kid", jsonText(sharedTestKey().kid() + "\\u0000")}}), payload(), sharedTestKey()));
       },
       TokenRejection::UnknownKey},
      // JW-10/JW-11: key-carrying and critical headers.
      {"JW10_jku",
       [] {
         return std::string(
             signRs256(header({{"jku", jsonText("https://evil.example/jwks")}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      {"JW10_x5u",
       [] {
         return std::string(
             signRs256(header({{"x5u", jsonText("https://evil.example/cert")}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      {"JW10_jwk",
       [] {
         return std::string(
             signRs256(header({{"kid", jsonText(otherTestKey().kid())}, {"jwk", otherTestKey().publicJwk()}}),
                       payload(), otherTestKey()));
       },
       TokenRejection::BadHeader},
      {"JW10_x5c",
       [] {
         return std::string(signRs256(header({{"x5c", "[\"MIIB\"]"}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      {"JW11_crit",
       [] {
         return std::string(signRs256(header({{"crit", "[\"foo\"]"}, {"foo", "1"}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      {"cty",
       [] {
         return std::string(signRs256(header({{"cty", jsonText("JWT")}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      // JW-12: not objects, not UTF-8, too deep.
      {"JW12_headerArray", [] { return std::string(signRs256("[1]", payload(), sharedTestKey())); },
       TokenRejection::Malformed},
      {"JW12_headerString", [] { return std::string(signRs256("\"RS256\"", payload(), sharedTestKey())); },
       TokenRejection::Malformed},
      {"JW12_payloadArray", [] { return std::string(signRs256(header(), "[]", sharedTestKey())); },
       TokenRejection::Malformed},
      {"JW12_payloadString", [] { return std::string(signRs256(header(), "\"x\"", sharedTestKey())); },
       TokenRejection::Malformed},
      {"JW12_payloadNotJson", [] { return std::string(signRs256(header(), "{", sharedTestKey())); },
       TokenRejection::Malformed},
      {"JW12_invalidUtf8",
       [] {
         return std::string(signRs256(header(), payload({{"scope", "\"write:codes\xff\""}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"JW12_deepNesting",
       [] {
         return std::string(signRs256(header(), payload({{"extra", nested(200)}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"JW12_headerDeepNesting",
       [] {
         return std::string(signRs256(header({{"x", nested(200)}}), payload(), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"modestNestingInAnUnknownClaim",
       [] {
         return std::string(signRs256(header(), payload({{"extra", nested(20)}}), sharedTestKey()));
       },
       TokenRejection::None},
      {"JW12_trailingGarbage", [] { return std::string(signRs256(header(), payload() + "x", sharedTestKey())); },
       TokenRejection::Malformed},
      // JW-13: duplicate members.
      {"JW13_duplicateScope",
       [] {
         return std::string(
             signRs256(header(), payload({{"scope", jsonText("read:codes")}}).insert(1, R"("scope":"write:codes",)"),
                       sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"JW13_duplicateAlg",
       [] { return std::string(signRs256(header().insert(1, R"("alg":"RS256",)"), payload(), sharedTestKey())); },
       TokenRejection::Malformed},
      // JW-14: claims of the wrong type or shape.
      {"JW14_issNumber",
       [] {
         return std::string(signRs256(header(), payload({{"iss", "1"}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"JW14_subObject",
       [] {
         return std::string(signRs256(header(), payload({{"sub", "{}"}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"JW14_clientIdArray",
       [] {
         return std::string(signRs256(header(), payload({{"client_id", "[\"svc_client_x\"]"}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"subNotAnOrganisation",
       [] {
         return std::string(
             signRs256(header(), payload({{"sub", jsonText("svc_client_AbCdEfGhIjKlMnOpQrStUvWx")}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"clientIdNotAClient",
       [] {
         return std::string(signRs256(header(), payload({{"client_id", jsonText("svc_client_")}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"missingJti",
       [] {
         return std::string(signRs256(header(), payload({{"jti", std::nullopt}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"emptyJti",
       [] {
         return std::string(signRs256(header(), payload({{"jti", jsonText("")}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"missingIss",
       [] {
         return std::string(signRs256(header(), payload({{"iss", std::nullopt}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"missingAud",
       [] {
         return std::string(signRs256(header(), payload({{"aud", std::nullopt}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"missingIat",
       [] {
         return std::string(signRs256(header(), payload({{"iat", std::nullopt}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"scopeArray",
       [] {
         return std::string(signRs256(header(), payload({{"scope", "[\"write:codes\"]"}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"expNotAfterIat",
       [] {
         return std::string(signRs256(header(), payload({{"exp", std::to_string(kTestEpoch)}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      // JW-15: a retired key, and a published one.
      {"JW15_retiredKey",
       [] {
         return std::string(signRs256(header({{"kid", jsonText(otherTestKey().kid())}}), payload(), otherTestKey()));
       },
       TokenRejection::UnknownKey},
      // JW-17: structurally valid but 7 KiB.
      {"JW17_sevenKiB",
       [] {
         return std::string(signRs256(header(), payload({{"pad", jsonText(std::string(5000, 'p'))}}), sharedTestKey()));
       },
       TokenRejection::TooLong},
      {"justUnderTheCap",
       [] {
         return std::string(signRs256(header(), payload({{"pad", jsonText(std::string(2200, 'p'))}}), sharedTestKey()));
       },
       TokenRejection::None},
      // BA-11..BA-14: time claims.
      {"BA11_expiredBeyondLeeway",
       [] {
         return std::string(signRs256(header(), payload({{"exp", std::to_string(kNow - 31)}}), sharedTestKey()));
       },
       TokenRejection::Expired},
      {"BA12_expiredWithinLeeway",
       [] {
         return std::string(signRs256(header(), payload({{"exp", std::to_string(kNow - 30 + 5)}}), sharedTestKey()));
       },
       TokenRejection::None},
      {"expiredExactlyAtLeeway",
       [] {
         return std::string(signRs256(header(), payload({{"exp", std::to_string(kNow - 30)}}), sharedTestKey()));
       },
       TokenRejection::None},
      {"BA13_nbfInFuture",
       [] {
         return std::string(signRs256(header(), payload({{"nbf", std::to_string(kNow + 30 + 5)}}), sharedTestKey()));
       },
       TokenRejection::NotYetValid},
      {"nbfWithinLeeway",
       [] {
         return std::string(signRs256(header(), payload({{"nbf", std::to_string(kNow + 30)}}), sharedTestKey()));
       },
       TokenRejection::None},
      {"BA13_iatInFuture",
       [] {
         return std::string(signRs256(
             header(),
             payload(
                 {{"iat", std::to_string(kNow + 600)}, {"nbf", std::nullopt}, {"exp", std::to_string(kNow + 4200)}}),
             sharedTestKey()));
       },
       TokenRejection::NotYetValid},
      {"nbfAbsent",
       [] {
         return std::string(signRs256(header(), payload({{"nbf", std::nullopt}}), sharedTestKey()));
       },
       TokenRejection::None},
      {"BA14_expMissing",
       [] {
         return std::string(signRs256(header(), payload({{"exp", std::nullopt}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"BA14_expString",
       [] {
         return std::string(signRs256(header(), payload({{"exp", jsonText("9999999999")}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"BA14_expHugeDouble",
       [] {
         return std::string(signRs256(header(), payload({{"exp", "1e300"}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"BA14_expNegative",
       [] {
         return std::string(signRs256(header(), payload({{"exp", "-1"}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"BA14_expFraction",
       [] {
         return std::string(
             signRs256(header(), payload({{"exp", std::to_string(kTestEpoch + 3600) + ".5"}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"BA14_expBeyond2To53",
       [] {
         return std::string(signRs256(header(), payload({{"exp", "9007199254740992"}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"BA14_expBool",
       [] {
         return std::string(signRs256(header(), payload({{"exp", "true"}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"BA14_nbfString",
       [] {
         return std::string(signRs256(header(), payload({{"nbf", jsonText("0")}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      // BA-21: audience.
      {"BA21_otherAudience",
       [] {
         return std::string(signRs256(header(), payload({{"aud", jsonText("https://other-api")}}), sharedTestKey()));
       },
       TokenRejection::WrongAudience},
      {"BA21_arrayWithoutUs",
       [] {
         return std::string(signRs256(header(), payload({{"aud", "[\"https://other-api\"]"}}), sharedTestKey()));
       },
       TokenRejection::WrongAudience},
      {"BA21_emptyAudience",
       [] {
         return std::string(signRs256(header(), payload({{"aud", jsonText("")}}), sharedTestKey()));
       },
       TokenRejection::WrongAudience},
      {"BA21_emptyArray",
       [] {
         return std::string(signRs256(header(), payload({{"aud", "[]"}}), sharedTestKey()));
       },
       TokenRejection::WrongAudience},
      {"BA21_arrayWithUs",
       [] {
         return std::string(signRs256(header(), payload({{"aud", "[\"https://other-api\",\"urn:codepayload:api\"]"}}),
                                      sharedTestKey()));
       },
       TokenRejection::None},
      {"BA21_arrayWithNumber",
       [] {
         return std::string(signRs256(header(), payload({{"aud", "[\"urn:codepayload:api\",1]"}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      {"BA21_audNumber",
       [] {
         return std::string(signRs256(header(), payload({{"aud", "1"}}), sharedTestKey()));
       },
       TokenRejection::Malformed},
      // BA-22: typ.
      {"BA22_typJwt",
       [] {
         return std::string(signRs256(header({{"typ", jsonText("JWT")}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      {"BA22_typMissing",
       [] {
         return std::string(signRs256(header({{"typ", std::nullopt}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      {"BA22_typApplicationAtJwt",
       [] {
         return std::string(signRs256(header({{"typ", jsonText("application/at+jwt")}}), payload(), sharedTestKey()));
       },
       TokenRejection::None},
      {"BA22_typUpperCase",
       [] {
         return std::string(signRs256(header({{"typ", jsonText("AT+JWT")}}), payload(), sharedTestKey()));
       },
       TokenRejection::None},
      {"BA22_typIdToken",
       [] {
         return std::string(signRs256(header({{"typ", jsonText("id_token+jwt")}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      {"algMissing",
       [] {
         return std::string(signRs256(header({{"alg", std::nullopt}}), payload(), sharedTestKey()));
       },
       TokenRejection::BadHeader},
      // BA-23: issuer, exactly.
      {"BA23_issuerTrailingSlash",
       [] {
         return std::string(
             signRs256(header(), payload({{"iss", jsonText("urn:codepayload:token-service/")}}), sharedTestKey()));
       },
       TokenRejection::WrongIssuer},
      {"BA23_stagingIssuer",
       [] {
         return std::string(
             signRs256(header(), payload({{"iss", jsonText("urn:codepayload:staging")}}), sharedTestKey()));
       },
       TokenRejection::WrongIssuer},
      {"issuerCase",
       [] {
         return std::string(
             signRs256(header(), payload({{"iss", jsonText("URN:codepayload:token-service")}}), sharedTestKey()));
       },
       TokenRejection::WrongIssuer},
      {"empty", [] { return std::string(""); }, TokenRejection::Malformed},
      {"garbage", [] { return std::string("not-a-token"); }, TokenRejection::Malformed},
  };
}

INSTANTIATE_TEST_SUITE_P(Tokens, AccessTokenVerifierTable, ::testing::ValuesIn(forgedTokens()),
                         [](const auto& row) { return std::string(row.param.name); });

TEST(AccessTokenVerifier, AcceptsTokensOfAPublishedKey) {
  // JW-15: the next (or previous) key in the set verifies; removed, it does not.
  const SigningKeySet withNext(sharedTestKey(), {otherTestKey()});
  const AccessTokenVerifier verifier(withNext, TokenSettings{});
  const std::string token = signRs256(header({{"kid", jsonText(otherTestKey().kid())}}), payload(), otherTestKey());
  AccessTokenClaims claims;
  EXPECT_EQ(verifier.verify(token, kNow, claims), TokenRejection::None);
  EXPECT_EQ(verify(token), TokenRejection::UnknownKey);
}

TEST(AccessTokenVerifier, UsesTheConfiguredIssuerAudienceAndLeeway) {
  TokenSettings settings;
  settings.issuer = "https://auth.example";
  settings.audience = "https://api.example";
  settings.leewaySeconds = 0;
  const AccessTokenVerifier verifier(keys(), settings);
  AccessTokenClaims claims;
  const std::string token = signRs256(
      header(), payload({{"iss", jsonText("https://auth.example")}, {"aud", jsonText("https://api.example")}}),
      sharedTestKey());
  EXPECT_EQ(verifier.verify(token, kTestEpoch + 3600, claims), TokenRejection::None);
  EXPECT_EQ(verifier.verify(token, kTestEpoch + 3601, claims), TokenRejection::Expired);
  EXPECT_EQ(verifier.verify(valid(), kNow, claims), TokenRejection::WrongIssuer);
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
