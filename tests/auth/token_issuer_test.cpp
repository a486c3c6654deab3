// TK-*: what an issued token and the token response look like.
#include "auth/token_issuer.h"

#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <memory>
#include <set>

#include "auth/access_token_verifier.h"
#include "auth/base64.h"
#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

using testing::FakeClock;
using testing::kTestEpoch;

constexpr std::string_view kOrg = "org_0123456789abcdef";
constexpr std::string_view kClient = "svc_client_AbCdEfGhIjKlMnOpQrStUvWx";

struct DecodedToken {
  std::string header;
  std::string payload;
  std::string signature;
  std::string signingInput;
};

DecodedToken decode(const std::string& token) {
  DecodedToken decoded;
  const std::size_t first = token.find('.');
  const std::size_t second = token.find('.', first + 1);
  EXPECT_NE(second, std::string::npos);
  EXPECT_EQ(token.find('.', second + 1), std::string::npos);
  EXPECT_TRUE(decodeBase64UrlStrict(token.substr(0, first), decoded.header));
  EXPECT_TRUE(decodeBase64UrlStrict(token.substr(first + 1, second - first - 1), decoded.payload));
  EXPECT_TRUE(decodeBase64UrlStrict(token.substr(second + 1), decoded.signature));
  decoded.signingInput = token.substr(0, second);
  return decoded;
}

std::string jtiOf(const std::string& payload) {
  const std::size_t start = payload.find(R"("jti":")") + 7;
  return payload.substr(start, payload.find('"', start) - start);
}

class TokenIssuerTest : public ::testing::TestWithParam<SigningAlgorithm> {
 protected:
  TokenIssuerTest() : keys_(testing::sharedTestKey(GetParam())), issuer_(keys_, TokenSettings{}, clock_.clock()) {}

  FakeClock clock_;
  SigningKeySet keys_;
  TokenIssuer issuer_;
  std::vector<std::string> scopes_ = {"write:codes", "read:codes"};
};

INSTANTIATE_TEST_SUITE_P(Algorithms, TokenIssuerTest, testing::kBothAlgorithms, testing::algorithmTestName);

TEST_P(TokenIssuerTest, HeaderNamesTheKeysAlgorithmAtJwtAndTheThumbprintKid) {
  // TK-03: ES256 for an EC key, RS256 for an RSA key.
  const DecodedToken token = decode(issuer_.issue({kOrg, kClient, scopes_}).accessToken);
  const std::string algorithm = GetParam() == SigningAlgorithm::ES256 ? "ES256" : "RS256";
  EXPECT_EQ(token.header, R"({"alg":")" + algorithm + R"(","kid":")" + keys_.active().kid() + R"(","typ":"at+jwt"})");
  // R||S (2 x 32 bytes) for ES256, the modulus size for RS256.
  EXPECT_EQ(token.signature.size(), GetParam() == SigningAlgorithm::ES256 ? 64u : 256u);
}

TEST(TokenIssuer, SignsWithTheActiveKeyOfARotation) {
  // JK-05: the active key signs, whatever the published keys are.
  FakeClock clock;
  const std::vector<std::string> scopes{"write:codes"};
  for (const SigningAlgorithm active : {SigningAlgorithm::ES256, SigningAlgorithm::RS256}) {
    const SigningKey& previous = testing::sharedTestKey(testing::otherAlgorithm(active));
    const SigningKeySet keys(testing::sharedTestKey(active), {previous});
    const TokenIssuer issuer(keys, TokenSettings{}, clock.clock());
    const DecodedToken token = decode(issuer.issue({kOrg, kClient, scopes}).accessToken);
    EXPECT_EQ(token.header, R"({"alg":")" + keys.active().algorithmName() + R"(","kid":")" + keys.active().kid() +
                                R"(","typ":"at+jwt"})");
  }
}

TEST_P(TokenIssuerTest, ClaimsAreExactWithIntegerNumericDates) {
  // TK-04, TK-06: D-K9 sub = organization id, plus client_id; nothing else.
  const IssuedToken issued = issuer_.issue({kOrg, kClient, scopes_});
  EXPECT_EQ(issued.expiresIn, 3600);
  const DecodedToken token = decode(issued.accessToken);
  const std::string jti = jtiOf(token.payload);
  EXPECT_EQ(jti.size(), 22u);
  EXPECT_EQ(token.payload,
            R"({"aud":"urn:codepayload:api","client_id":"svc_client_AbCdEfGhIjKlMnOpQrStUvWx","exp":1800003600,)"
            R"("iat":1800000000,"iss":"urn:codepayload:token-service","jti":")" +
                jti + R"(","nbf":1800000000,"scope":"write:codes read:codes","sub":"org_0123456789abcdef"})");
}

TEST_P(TokenIssuerTest, UsesTheConfiguredIssuerAudienceAndLifetime) {
  TokenSettings settings;
  settings.issuer = "https://auth.example";
  settings.audience = "https://api.example";
  settings.lifetimeSeconds = 60;
  const TokenIssuer issuer(keys_, settings, clock_.clock());
  const std::vector<std::string> none;
  const IssuedToken issued = issuer.issue({kOrg, kClient, none});
  EXPECT_EQ(issued.expiresIn, 60);
  const DecodedToken token = decode(issued.accessToken);
  EXPECT_EQ(token.payload, R"({"aud":"https://api.example","client_id":"svc_client_AbCdEfGhIjKlMnOpQrStUvWx",)"
                           R"("exp":1800000060,"iat":1800000000,"iss":"https://auth.example","jti":")" +
                               jtiOf(token.payload) + R"(","nbf":1800000000,"sub":"org_0123456789abcdef"})");
}

TEST_P(TokenIssuerTest, DatesATokenNoEarlierThanTheSubjectsNotBefore) {
  for (const auto& [notBefore, expectedIat] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {0, kTestEpoch}, {kTestEpoch - 5, kTestEpoch}, {kTestEpoch, kTestEpoch}, {kTestEpoch + 1, kTestEpoch + 1}}) {
    const DecodedToken token = decode(issuer_.issue({kOrg, kClient, scopes_, notBefore}).accessToken);
    const std::string iat = std::to_string(expectedIat);
    EXPECT_NE(token.payload.find(R"("iat":)" + iat + ","), std::string::npos) << token.payload;
    EXPECT_NE(token.payload.find(R"("nbf":)" + iat + ","), std::string::npos) << token.payload;
    EXPECT_NE(token.payload.find(R"("exp":)" + std::to_string(expectedIat + 3600) + ","), std::string::npos)
        << token.payload;
  }
}

TEST(TokenIssuer, ResponseJsonIsTheTokenResponse) {
  // TE-01/TK-02: token_type Bearer, integer expires_in, no refresh_token or id_token.
  EXPECT_EQ(TokenIssuer::responseJson({"a.b.c", 3600}),
            R"({"access_token":"a.b.c","token_type":"Bearer","expires_in":3600})");
}

TEST_P(TokenIssuerTest, AThousandTokensHaveDistinctJtisAndAllVerify) {
  // TK-05, TK-07.
  const AccessTokenVerifier verifier(keys_, TokenSettings{});
  std::set<std::string> jtis;
  for (int index = 0; index < 1000; ++index) {
    const std::string token = issuer_.issue({kOrg, kClient, scopes_}).accessToken;
    EXPECT_LT(token.size(), 1024u);
    AccessTokenClaims claims;
    ASSERT_EQ(verifier.verify(token, kTestEpoch, claims), TokenRejection::None);
    jtis.insert(claims.jwtId);
  }
  EXPECT_EQ(jtis.size(), 1000u);
}

// A member of the published JWK, base64url-decoded.
std::string jwkMember(const std::string& jwk, std::string_view name) {
  const std::size_t start = jwk.find("\"" + std::string(name) + "\":\"") + name.size() + 4;
  std::string bytes;
  EXPECT_TRUE(decodeBase64UrlStrict(jwk.substr(start, jwk.find('"', start) - start), bytes)) << name;
  return bytes;
}

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

// The public key rebuilt from the JWK alone: n and e, or the P-256 point x, y.
Pkey publicKeyFromJwk(const std::string& jwk, SigningAlgorithm algorithm) {
  OSSL_PARAM_BLD* builder = OSSL_PARAM_BLD_new();
  BIGNUM* n = nullptr;
  BIGNUM* e = nullptr;
  std::string point;
  if (algorithm == SigningAlgorithm::RS256) {
    const std::string nBytes = jwkMember(jwk, "n");
    const std::string eBytes = jwkMember(jwk, "e");
    n = BN_bin2bn(reinterpret_cast<const unsigned char*>(nBytes.data()), static_cast<int>(nBytes.size()), nullptr);
    e = BN_bin2bn(reinterpret_cast<const unsigned char*>(eBytes.data()), static_cast<int>(eBytes.size()), nullptr);
    OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, n);
    OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, e);
  } else {
    const std::string x = jwkMember(jwk, "x");
    const std::string y = jwkMember(jwk, "y");
    EXPECT_EQ(x.size(), 32u);
    EXPECT_EQ(y.size(), 32u);
    point = "\x04" + x + y;  // SEC 1 uncompressed point
    OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
    OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size());
  }
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(builder);
  EVP_PKEY_CTX* context =
      EVP_PKEY_CTX_new_from_name(nullptr, algorithm == SigningAlgorithm::RS256 ? "RSA" : "EC", nullptr);
  EVP_PKEY* key = nullptr;
  EXPECT_EQ(EVP_PKEY_fromdata_init(context), 1);
  EXPECT_EQ(EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params), 1);
  EVP_PKEY_CTX_free(context);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(builder);
  BN_free(n);
  BN_free(e);
  return Pkey(key);
}

// The JWS signature as OpenSSL's EVP_DigestVerify takes it: as is for RSA;
// for ECDSA, R||S (exactly 32 + 32 bytes, RFC 7518 §3.4) to a DER ECDSA-Sig-Value.
std::string opensslSignature(const std::string& signature, SigningAlgorithm algorithm) {
  if (algorithm == SigningAlgorithm::RS256) return signature;
  EXPECT_EQ(signature.size(), 64u);
  const auto* bytes = reinterpret_cast<const unsigned char*>(signature.data());
  ECDSA_SIG* ecdsa = ECDSA_SIG_new();
  EXPECT_EQ(ECDSA_SIG_set0(ecdsa, BN_bin2bn(bytes, 32, nullptr), BN_bin2bn(bytes + 32, 32, nullptr)), 1);
  unsigned char* der = nullptr;
  const int length = i2d_ECDSA_SIG(ecdsa, &der);
  EXPECT_GT(length, 0);
  std::string encoded(reinterpret_cast<const char*>(der), static_cast<std::size_t>(length));
  OPENSSL_free(der);
  ECDSA_SIG_free(ecdsa);
  return encoded;
}

bool opensslVerifies(EVP_PKEY* publicKey, const DecodedToken& token, SigningAlgorithm algorithm) {
  const std::string signature = opensslSignature(token.signature, algorithm);
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  const bool verified =
      EVP_DigestVerifyInit(context, nullptr, EVP_sha256(), nullptr, publicKey) == 1 &&
      EVP_DigestVerify(context, reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                       reinterpret_cast<const unsigned char*>(token.signingInput.data()),
                       token.signingInput.size()) == 1;
  EVP_MD_CTX_free(context);
  return verified;
}

TEST_P(TokenIssuerTest, VerifiesWithOpenSslAgainstThePublishedJwk) {
  // TK-08: an independent verifier (OpenSSL, key rebuilt from the JWK).
  const Pkey publicKey = publicKeyFromJwk(keys_.active().publicJwk(), GetParam());
  ASSERT_NE(publicKey, nullptr);
  const DecodedToken token = decode(issuer_.issue({kOrg, kClient, scopes_}).accessToken);
  EXPECT_TRUE(opensslVerifies(publicKey.get(), token, GetParam()));
  DecodedToken tampered = token;
  tampered.signingInput.back() ^= 1;
  EXPECT_FALSE(opensslVerifies(publicKey.get(), tampered, GetParam()));
}

TEST(TokenIssuer, Es256SignaturesArePaddedRAndSForOpenSsl) {
  // RFC 7518 §3.4: R and S are each exactly 32 bytes, big-endian, left-padded
  // with zeros. About one signature in 128 has an R or S under 32 bytes: sign
  // until both a short R and a short S were seen, verifying every token with
  // OpenSSL, so a padding bug in Poco cannot pass.
  FakeClock clock;
  const SigningKeySet keys(testing::sharedTestKey(SigningAlgorithm::ES256));
  const TokenIssuer issuer(keys, TokenSettings{}, clock.clock());
  const Pkey publicKey = publicKeyFromJwk(keys.active().publicJwk(), SigningAlgorithm::ES256);
  ASSERT_NE(publicKey, nullptr);
  const std::vector<std::string> scopes{"write:codes"};
  bool shortR = false;
  bool shortS = false;
  int issued = 0;
  for (; issued < 20000 && !(shortR && shortS); ++issued) {
    const DecodedToken token = decode(issuer.issue({kOrg, kClient, scopes}).accessToken);
    ASSERT_EQ(token.signature.size(), 64u);
    ASSERT_TRUE(opensslVerifies(publicKey.get(), token, SigningAlgorithm::ES256)) << "token " << issued;
    shortR = shortR || token.signature[0] == '\0';
    shortS = shortS || token.signature[32] == '\0';
  }
  EXPECT_TRUE(shortR) << issued << " tokens";
  EXPECT_TRUE(shortS) << issued << " tokens";
}

TEST(TokenIssuer, Es256SignaturesAreWrittenWithLowS) {
  // The verifier refuses S > n/2 (the other spelling of the same signature),
  // so the issuer must never write one. OpenSSL signs with a random nonce and
  // gives a high S about half the time: 200 tokens all low (checked with
  // OpenSSL's big numbers) and all verifying with OpenSSL.
  FakeClock clock;
  const SigningKeySet keys(testing::sharedTestKey(SigningAlgorithm::ES256));
  const TokenIssuer issuer(keys, TokenSettings{}, clock.clock());
  const Pkey publicKey = publicKeyFromJwk(keys.active().publicJwk(), SigningAlgorithm::ES256);
  ASSERT_NE(publicKey, nullptr);
  const std::unique_ptr<EC_GROUP, decltype(&EC_GROUP_free)> group(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1),
                                                                  &EC_GROUP_free);
  const std::unique_ptr<BIGNUM, decltype(&BN_free)> halfOrder(BN_new(), &BN_free);
  ASSERT_EQ(BN_rshift1(halfOrder.get(), EC_GROUP_get0_order(group.get())), 1);
  const std::vector<std::string> scopes{"write:codes"};
  for (int issued = 0; issued < 200; ++issued) {
    const DecodedToken token = decode(issuer.issue({kOrg, kClient, scopes}).accessToken);
    ASSERT_EQ(token.signature.size(), 64u);
    const std::unique_ptr<BIGNUM, decltype(&BN_free)> s(
        BN_bin2bn(reinterpret_cast<const unsigned char*>(token.signature.data()) + 32, 32, nullptr), &BN_free);
    ASSERT_NE(s, nullptr);
    EXPECT_LE(BN_cmp(s.get(), halfOrder.get()), 0) << "token " << issued;
    EXPECT_TRUE(opensslVerifies(publicKey.get(), token, SigningAlgorithm::ES256)) << "token " << issued;
  }
}

}  // namespace
}  // namespace codepayload::auth
