// JS-*: the token issuer's signatures (SigningKey::sign, auth/jws_signer.h).
#include "auth/jws_signer.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <Poco/JWT/Token.h>

#include <algorithm>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "auth/base64.h"
#include "auth/ecdsa_low_s.h"
#include "auth/openssl_handles.h"
#include "auth/signing_keys.h"
#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

constexpr std::string_view kPayload = R"({"sub":"org_0123456789abcdef","jti":"x"})";

std::string headerOf(const SigningKey& key) { return R"({"alg":")" + key.algorithmName() + R"("})"; }

// "<header>.<payload>" of a token, as the issuer passes it to sign().
std::string signingInputOf(std::string_view headerJson, std::string_view payloadJson) {
  return encodeBase64Url(headerJson) + "." + encodeBase64Url(payloadJson);
}

bool verifiesWithPoco(const SigningKey& key, const std::string& signingInput, const std::string& signature) {
  Poco::JWT::Token parsed;
  return key.signer().tryVerify(signingInput + "." + encodeBase64Url(signature), parsed);
}

bool isLowS(const std::string& signature) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(signature.data());
  return hasLowS(std::span<const unsigned char, kEs256SignatureSize>(bytes, kEs256SignatureSize));
}

TEST(JwsSigner, Rs256IsThePkcs1SignatureOpenSslWritesForTheSameInput) {
  // JS-01: RSASSA-PKCS1-v1_5 is deterministic, so the signature is exactly the
  // one of the test signer (EVP_DigestSign with SHA-256, another code path).
  const SigningKey& key = testing::sharedTestKey(SigningAlgorithm::RS256);
  const std::string reference = testing::signJws(headerOf(key), kPayload, key);
  const std::string input = signingInputOf(headerOf(key), kPayload);
  const std::string signature = key.sign(input);
  EXPECT_EQ(signature.size(), 256u);
  EXPECT_EQ(input + "." + encodeBase64Url(signature), reference);
  EXPECT_TRUE(verifiesWithPoco(key, input, signature));
}

TEST(JwsSigner, Es256IsSixtyFourBytesLowSAndVerifies) {
  // JS-02: R || S, always the low-S spelling (OpenSSL writes a high S about
  // every other time, so 200 signatures would show a missed rewrite), and
  // each verifies with Poco's verifier; no two are the same (random nonces).
  const SigningKey& key = testing::sharedTestKey(SigningAlgorithm::ES256);
  const std::string input = signingInputOf(headerOf(key), kPayload);
  std::vector<std::string> signatures;
  for (int index = 0; index < 200; ++index) {
    const std::string signature = key.sign(input);
    ASSERT_EQ(signature.size(), kEs256SignatureSize);
    EXPECT_TRUE(isLowS(signature)) << index;
    EXPECT_TRUE(verifiesWithPoco(key, input, signature)) << index;
    signatures.push_back(signature);
  }
  std::sort(signatures.begin(), signatures.end());
  EXPECT_EQ(std::adjacent_find(signatures.begin(), signatures.end()), signatures.end());
}

TEST(JwsSigner, ASignatureDoesNotVerifyForAnotherInputOrKey) {
  // JS-03.
  for (const SigningAlgorithm algorithm : {SigningAlgorithm::ES256, SigningAlgorithm::RS256}) {
    const SigningKey& key = testing::sharedTestKey(algorithm);
    const std::string input = signingInputOf(headerOf(key), kPayload);
    const std::string other = signingInputOf(headerOf(key), R"({"sub":"org_0123456789abcdeg","jti":"x"})");
    const std::string signature = key.sign(input);
    EXPECT_FALSE(verifiesWithPoco(key, other, signature)) << signingAlgorithmName(algorithm);
    EXPECT_FALSE(verifiesWithPoco(testing::otherTestKey(algorithm), input, signature))
        << signingAlgorithmName(algorithm);
  }
}

TEST(JwsSigner, ThreadsSignAtOnceWithOneKey) {
  // JS-04: the prepared context is shared by every request thread.
  for (const SigningAlgorithm algorithm : {SigningAlgorithm::ES256, SigningAlgorithm::RS256}) {
    const SigningKey& key = testing::sharedTestKey(algorithm);
    constexpr int kThreads = 4;
    constexpr int kSignaturesEach = 25;
    std::vector<std::vector<std::string>> results(kThreads);
    std::vector<std::thread> threads;
    for (int thread = 0; thread < kThreads; ++thread) {
      threads.emplace_back([&key, &results, thread] {
        for (int index = 0; index < kSignaturesEach; ++index) {
          const std::string payload = R"({"n":)" + std::to_string(thread * kSignaturesEach + index) + "}";
          results[thread].push_back(key.sign(signingInputOf(headerOf(key), payload)));
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (int thread = 0; thread < kThreads; ++thread) {
      ASSERT_EQ(results[thread].size(), static_cast<std::size_t>(kSignaturesEach));
      for (int index = 0; index < kSignaturesEach; ++index) {
        const std::string payload = R"({"n":)" + std::to_string(thread * kSignaturesEach + index) + "}";
        EXPECT_TRUE(verifiesWithPoco(key, signingInputOf(headerOf(key), payload), results[thread][index]))
            << signingAlgorithmName(algorithm) << " " << thread << " " << index;
      }
    }
  }
}

TEST(JwsSigner, RefusesAnEcKeyForRs256) {
  // JS-05: the caller names the algorithm of the key; a mismatch is refused
  // when the signer is made, not at the first token.
  const openssl::PrivateKey ecKey(EVP_EC_gen("P-256"));
  ASSERT_NE(ecKey, nullptr);
  try {
    const JwsSigner signer(ecKey.get(), SigningAlgorithm::RS256);
    FAIL() << "an EC key was accepted for RS256";
  } catch (const JwsSigningError& error) {
    EXPECT_STREQ(error.what(), "cannot prepare the RSA token signing key for PKCS #1 v1.5 signatures");
  }
}

}  // namespace
}  // namespace codepayload::auth
