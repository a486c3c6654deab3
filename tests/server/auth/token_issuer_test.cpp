// TK-*: what an issued token and the token response look like.
#include "server/auth/token_issuer.h"

#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <set>

#include "auth_test_support.h"
#include "server/auth/access_token_verifier.h"
#include "server/auth/base64.h"

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

class TokenIssuerTest : public ::testing::Test {
 protected:
  TokenIssuerTest() : keys_(testing::sharedTestKey()), issuer_(keys_, TokenSettings{}, clock_.clock()) {}

  FakeClock clock_;
  SigningKeySet keys_;
  TokenIssuer issuer_;
  std::vector<std::string> scopes_ = {"write:codes", "read:codes"};
};

TEST_F(TokenIssuerTest, HeaderIsRs256AtJwtWithTheThumbprintKid) {
  // TK-03.
  const DecodedToken token = decode(issuer_.issue({kOrg, kClient, scopes_}).accessToken);
  EXPECT_EQ(token.header, R"({"alg":"RS256","kid":")" + keys_.active().kid() + R"(","typ":"at+jwt"})");
}

TEST_F(TokenIssuerTest, ClaimsAreExactWithIntegerNumericDates) {
  // TK-04, TK-06: D9 sub = organisation id, plus client_id; nothing else.
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

TEST_F(TokenIssuerTest, UsesTheConfiguredIssuerAudienceAndLifetime) {
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

TEST_F(TokenIssuerTest, ResponseJsonIsTheTokenResponse) {
  // TE-01/TK-02: token_type Bearer, integer expires_in, no refresh_token or id_token.
  EXPECT_EQ(TokenIssuer::responseJson({"a.b.c", 3600}),
            R"({"access_token":"a.b.c","token_type":"Bearer","expires_in":3600})");
}

TEST_F(TokenIssuerTest, AThousandTokensHaveDistinctJtisAndAllVerify) {
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

TEST_F(TokenIssuerTest, VerifiesWithOpenSslAgainstThePublishedJwk) {
  // TK-08: an independent verifier (OpenSSL, key rebuilt from the JWK's n and e).
  const std::string jwk = keys_.active().publicJwk();
  const auto member = [&jwk](std::string_view name) {
    const std::size_t start = jwk.find("\"" + std::string(name) + "\":\"") + name.size() + 4;
    std::string bytes;
    EXPECT_TRUE(decodeBase64UrlStrict(jwk.substr(start, jwk.find('"', start) - start), bytes));
    return bytes;
  };
  const std::string n = member("n");
  const std::string e = member("e");
  BIGNUM* nNumber = BN_bin2bn(reinterpret_cast<const unsigned char*>(n.data()), static_cast<int>(n.size()), nullptr);
  BIGNUM* eNumber = BN_bin2bn(reinterpret_cast<const unsigned char*>(e.data()), static_cast<int>(e.size()), nullptr);
  OSSL_PARAM_BLD* builder = OSSL_PARAM_BLD_new();
  OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, nNumber);
  OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, eNumber);
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(builder);
  EVP_PKEY_CTX* keyContext = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
  EVP_PKEY* publicKey = nullptr;
  ASSERT_EQ(EVP_PKEY_fromdata_init(keyContext), 1);
  ASSERT_EQ(EVP_PKEY_fromdata(keyContext, &publicKey, EVP_PKEY_PUBLIC_KEY, params), 1);

  const DecodedToken token = decode(issuer_.issue({kOrg, kClient, scopes_}).accessToken);
  EVP_MD_CTX* verifyContext = EVP_MD_CTX_new();
  ASSERT_EQ(EVP_DigestVerifyInit(verifyContext, nullptr, EVP_sha256(), nullptr, publicKey), 1);
  EXPECT_EQ(EVP_DigestVerify(verifyContext, reinterpret_cast<const unsigned char*>(token.signature.data()),
                             token.signature.size(),
                             reinterpret_cast<const unsigned char*>(token.signingInput.data()),
                             token.signingInput.size()),
            1);
  EVP_MD_CTX_free(verifyContext);
  EVP_PKEY_free(publicKey);
  EVP_PKEY_CTX_free(keyContext);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(builder);
  BN_free(nNumber);
  BN_free(eNumber);
}

}  // namespace
}  // namespace codepayload::auth
