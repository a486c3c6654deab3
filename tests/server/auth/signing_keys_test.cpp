// JK-* and the key material: thumbprint kid, public JWK, key file handling.
#include "server/auth/signing_keys.h"

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sys/stat.h>

#include <Poco/JWT/JWTException.h>

#include <fstream>
#include <sstream>

#include "auth_test_support.h"
#include "server/auth/base64.h"

namespace codepayload::auth {
namespace {

using testing::TempDir;

// n and e of `key`, read with OpenSSL from its PEM (independently of Poco),
// as unsigned big-endian bytes.
std::pair<std::string, std::string> modulusAndExponent(const SigningKey& key) {
  const std::string pem = key.publicKeyPem();
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  EVP_PKEY* pkey = PEM_read_bio_PUBKEY(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  EXPECT_NE(pkey, nullptr);
  BIGNUM* n = nullptr;
  BIGNUM* e = nullptr;
  EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_N, &n);
  EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_RSA_E, &e);
  std::string nBytes(static_cast<std::size_t>(BN_num_bytes(n)), '\0');
  std::string eBytes(static_cast<std::size_t>(BN_num_bytes(e)), '\0');
  BN_bn2bin(n, reinterpret_cast<unsigned char*>(nBytes.data()));
  BN_bn2bin(e, reinterpret_cast<unsigned char*>(eBytes.data()));
  BN_free(n);
  BN_free(e);
  EVP_PKEY_free(pkey);
  return {nBytes, eBytes};
}

std::string sha256(const std::string& text) {
  unsigned char digest[32];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
  return std::string(reinterpret_cast<const char*>(digest), length);
}

TEST(SigningKey, KidIsTheRfc7638Thumbprint) {
  const SigningKey& key = testing::sharedTestKey();
  const auto [n, e] = modulusAndExponent(key);
  EXPECT_EQ(n.size(), 256u);  // 2048 bits
  EXPECT_EQ(e, std::string("\x01\x00\x01", 3));
  const std::string members =
      R"({"e":")" + encodeBase64Url(e) + R"(","kty":"RSA","n":")" + encodeBase64Url(n) + R"("})";
  EXPECT_EQ(key.kid(), encodeBase64Url(sha256(members)));
  EXPECT_EQ(key.kid().size(), 43u);
  EXPECT_EQ(key.signatureSize(), 256u);
}

TEST(SigningKey, PublicJwkHasExactlyThePublicMembers) {
  // JK-02: kty, kid, use, alg, n, e; nothing private.
  const SigningKey& key = testing::sharedTestKey();
  const auto [n, e] = modulusAndExponent(key);
  EXPECT_EQ(key.publicJwk(), R"({"kty":"RSA","kid":")" + key.kid() + R"(","use":"sig","alg":"RS256","n":")" +
                                 encodeBase64Url(n) + R"(","e":"AQAB"})");
}

TEST(SigningKey, DifferentKeysHaveDifferentKids) {
  EXPECT_NE(testing::sharedTestKey().kid(), testing::otherTestKey().kid());
}

TEST(SigningKey, SignerVerifiesOnlyRs256) {
  // Poco's default allowed set is {HS256}; the key's signer must allow RS256 only.
  Poco::JWT::Token token;
  token.payload().set("sub", std::string("x"));
  const SigningKey& key = testing::sharedTestKey();
  const std::string rs256 = key.signer().sign(token, Poco::JWT::Signer::ALGO_RS256);
  Poco::JWT::Token parsed;
  EXPECT_TRUE(key.signer().tryVerify(rs256, parsed));
  const std::string rs512 = key.signer().sign(token, Poco::JWT::Signer::ALGO_RS512);
  EXPECT_THROW(key.signer().tryVerify(rs512, parsed), Poco::JWT::UnallowedAlgorithmException);
  const std::string hs256 = testing::signHs256(R"({"alg":"HS256"})", R"({"sub":"x"})", key.publicKeyPem());
  EXPECT_THROW(key.signer().tryVerify(hs256, parsed), Poco::JWT::UnallowedAlgorithmException);
}

TEST(SigningKey, RefusesKeysUnder2048Bits) {
  EXPECT_THROW(SigningKey::generate(1024), SigningKeyError);
}

TEST(SigningKey, LoadOrCreateWritesA0600PemOnceAndReadsItBack) {
  TempDir dir;
  const auto file = dir.path() / "token-signing-key.pem";
  const SigningKey created = SigningKey::loadOrCreate(file);
  struct stat status {};
  ASSERT_EQ(::stat(file.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u);
  std::ifstream in(file);
  std::stringstream pem;
  pem << in.rdbuf();
  EXPECT_TRUE(pem.str().starts_with("-----BEGIN RSA PRIVATE KEY-----\n")) << pem.str().substr(0, 40);
  const SigningKey again = SigningKey::loadOrCreate(file);
  EXPECT_EQ(again.kid(), created.kid());
  EXPECT_EQ(SigningKey::load(file).kid(), created.kid());
}

TEST(SigningKey, RefusesAKeyFileReadableByOthersOrNotAKey) {
  TempDir dir;
  const auto file = dir.path() / "key.pem";
  SigningKey::loadOrCreate(file);
  ASSERT_EQ(::chmod(file.c_str(), 0640), 0);
  try {
    SigningKey::load(file);
    FAIL();
  } catch (const SigningKeyError& error) {
    EXPECT_EQ(std::string(error.what()),
              "token signing key: " + file.string() + " is accessible to group or others; it must have mode 0600");
  }
  const auto garbage = dir.path() / "garbage.pem";
  {
    std::ofstream out(garbage);
    out << "not a key\n";
  }
  ::chmod(garbage.c_str(), 0600);
  try {
    SigningKey::load(garbage);
    FAIL();
  } catch (const SigningKeyError& error) {
    EXPECT_TRUE(std::string(error.what()).starts_with(garbage.string() + " is not a PEM RSA private key: "))
        << error.what();
  }
  try {
    SigningKey::load(dir.path() / "missing.pem");
    FAIL();
  } catch (const SigningKeyError& error) {
    EXPECT_EQ(std::string(error.what()),
              "token signing key: cannot open " + (dir.path() / "missing.pem").string() + ": No such file or directory");
  }
}

TEST(SigningKeySet, FindsKeysByKidAndPublishesAllInOrder) {
  const SigningKey& active = testing::sharedTestKey();
  const SigningKey& previous = testing::otherTestKey();
  const SigningKeySet keys(active, {previous, active});
  EXPECT_EQ(keys.active().kid(), active.kid());
  EXPECT_EQ(keys.find(active.kid()), &keys.active());
  ASSERT_NE(keys.find(previous.kid()), nullptr);
  EXPECT_EQ(keys.find(previous.kid())->kid(), previous.kid());
  EXPECT_EQ(keys.find("unknown"), nullptr);
  EXPECT_EQ(keys.find(""), nullptr);
  // JK-01/JK-02/JK-04: every key once, the active one first, public members only.
  EXPECT_EQ(keys.jwksJson(), R"({"keys":[)" + active.publicJwk() + "," + previous.publicJwk() + "]}");
  for (const char* privateMember : {"\"d\"", "\"p\"", "\"q\"", "\"dp\"", "\"dq\"", "\"qi\"", "\"oth\"", "\"oct\""}) {
    EXPECT_EQ(keys.jwksJson().find(privateMember), std::string::npos) << privateMember;
  }
}

}  // namespace
}  // namespace codepayload::auth
