// JK-* and the key material: the algorithm follows the key, thumbprint kid,
// public JWK, key file handling.
#include "auth/signing_keys.h"

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/dsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sys/stat.h>

#include <Poco/JWT/JWTException.h>

#include <fstream>
#include <functional>
#include <memory>
#include <set>
#include <sstream>

#include "auth/base64.h"
#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

using testing::TempDir;

constexpr std::string_view kAcceptedKeys =
    "; it must be an EC P-256 key (ES256) or an RSA key of at least 2048 bits (RS256)";

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

Pkey readPublicKey(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  Pkey key(PEM_read_bio_PUBKEY(bio, nullptr, nullptr, nullptr));
  BIO_free(bio);
  EXPECT_NE(key, nullptr);
  return key;
}

// A public-key parameter as unsigned big-endian bytes, `width` bytes when > 0.
std::string parameterBytes(const EVP_PKEY* key, const char* name, int width = 0) {
  BIGNUM* number = nullptr;
  EXPECT_EQ(EVP_PKEY_get_bn_param(key, name, &number), 1) << name;
  const int length = width > 0 ? width : BN_num_bytes(number);
  std::string bytes(static_cast<std::size_t>(length), '\0');
  EXPECT_EQ(BN_bn2binpad(number, reinterpret_cast<unsigned char*>(bytes.data()), length), length);
  BN_free(number);
  return bytes;
}

std::string sha256(const std::string& text) {
  unsigned char digest[32];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
  return std::string(reinterpret_cast<const char*>(digest), length);
}

// The RFC 7638 members and the public JWK of `key`, rebuilt from its public
// PEM with OpenSSL (independently of the code under test).
struct ExpectedJwk {
  std::string thumbprintInput;
  std::string jwkAfterKid;  // the members after "kid"
};

ExpectedJwk expectedJwkOf(const SigningKey& key) {
  const Pkey pkey = readPublicKey(key.publicKeyPem());
  if (key.algorithm() == SigningAlgorithm::ES256) {
    const std::string x = encodeBase64Url(parameterBytes(pkey.get(), OSSL_PKEY_PARAM_EC_PUB_X, 32));
    const std::string y = encodeBase64Url(parameterBytes(pkey.get(), OSSL_PKEY_PARAM_EC_PUB_Y, 32));
    return {R"({"crv":"P-256","kty":"EC","x":")" + x + R"(","y":")" + y + R"("})",
            R"("use":"sig","alg":"ES256","crv":"P-256","x":")" + x + R"(","y":")" + y + R"("})"};
  }
  const std::string n = encodeBase64Url(parameterBytes(pkey.get(), OSSL_PKEY_PARAM_RSA_N));
  const std::string e = encodeBase64Url(parameterBytes(pkey.get(), OSSL_PKEY_PARAM_RSA_E));
  return {R"({"e":")" + e + R"(","kty":"RSA","n":")" + n + R"("})",
          R"("use":"sig","alg":"RS256","n":")" + n + R"(","e":")" + e + R"("})"};
}

std::string jwkPrefix(SigningAlgorithm algorithm) {
  return algorithm == SigningAlgorithm::ES256 ? R"({"kty":"EC","kid":")" : R"({"kty":"RSA","kid":")";
}

std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void writePrivateFile(const std::filesystem::path& file, const std::string& content) {
  {
    std::ofstream out(file);
    out << content;
  }
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
}

std::string pemOf(EVP_PKEY* key) {
  BIO* bio = BIO_new(BIO_s_mem());
  EXPECT_EQ(PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr), 1);
  char* data = nullptr;
  const long size = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data);
  std::string pem(data, static_cast<std::size_t>(size));
  BIO_free(bio);
  return pem;
}

// The message SigningKey::load gives for `file`, or "" when it loads.
std::string loadError(const std::filesystem::path& file) {
  try {
    SigningKey::load(file);
  } catch (const SigningKeyError& error) {
    return error.what();
  }
  return "";
}

class SigningKeyOfEachAlgorithm : public ::testing::TestWithParam<SigningAlgorithm> {
 protected:
  const SigningKey& key() const { return testing::sharedTestKey(GetParam()); }
};

INSTANTIATE_TEST_SUITE_P(Algorithms, SigningKeyOfEachAlgorithm, testing::kBothAlgorithms, testing::algorithmTestName);

TEST_P(SigningKeyOfEachAlgorithm, AlgorithmAndSignatureSizeFollowTheKey) {
  EXPECT_EQ(key().algorithm(), GetParam());
  EXPECT_EQ(key().algorithmName(), GetParam() == SigningAlgorithm::ES256 ? "ES256" : "RS256");
  EXPECT_EQ(key().signatureSize(), GetParam() == SigningAlgorithm::ES256 ? 64u : 256u);
}

TEST_P(SigningKeyOfEachAlgorithm, KidIsTheRfc7638Thumbprint) {
  EXPECT_EQ(key().kid(), encodeBase64Url(sha256(expectedJwkOf(key()).thumbprintInput)));
  EXPECT_EQ(key().kid().size(), 43u);
}

TEST_P(SigningKeyOfEachAlgorithm, PublicJwkHasExactlyThePublicMembers) {
  // JK-02: kty, kid, use, alg and the public parameters; nothing private.
  EXPECT_EQ(key().publicJwk(), jwkPrefix(GetParam()) + key().kid() + "\"," + expectedJwkOf(key()).jwkAfterKid);
}

TEST_P(SigningKeyOfEachAlgorithm, DifferentKeysHaveDifferentKids) {
  EXPECT_NE(key().kid(), testing::otherTestKey(GetParam()).kid());
  EXPECT_NE(key().kid(), testing::sharedTestKey(testing::otherAlgorithm(GetParam())).kid());
}

TEST_P(SigningKeyOfEachAlgorithm, SignerVerifiesOnlyTheKeysOwnAlgorithm) {
  // Poco's default allowed set is {HS256}; the key's signer allows its own algorithm only.
  EXPECT_EQ(key().signer().getAlgorithms(), std::set<std::string>{key().algorithmName()});
  Poco::JWT::Token token;
  token.payload().set("sub", std::string("x"));
  const std::string own = key().signer().sign(token, key().algorithmName());
  Poco::JWT::Token parsed;
  EXPECT_TRUE(key().signer().tryVerify(own, parsed));
  // The same family with SHA-512 (RS512; for EC Poco's non-standard ES512 on P-256).
  const std::string sha512 = key().signer().sign(token, GetParam() == SigningAlgorithm::ES256 ? "ES512" : "RS512");
  EXPECT_THROW(key().signer().tryVerify(sha512, parsed), Poco::JWT::UnallowedAlgorithmException);
  const std::string hs256 = testing::signHs256(R"({"alg":"HS256"})", R"({"sub":"x"})", key().publicKeyPem());
  EXPECT_THROW(key().signer().tryVerify(hs256, parsed), Poco::JWT::UnallowedAlgorithmException);
  const SigningKey& otherKind = testing::sharedTestKey(testing::otherAlgorithm(GetParam()));
  const std::string crossed =
      testing::signJws(R"({"alg":")" + otherKind.algorithmName() + R"("})", R"({"sub":"x"})", otherKind);
  EXPECT_THROW(key().signer().tryVerify(crossed, parsed), Poco::JWT::UnallowedAlgorithmException);
}

TEST_P(SigningKeyOfEachAlgorithm, LoadOrCreateWritesA0600Pkcs8PemOnceAndReadsItBack) {
  TempDir dir;
  const auto file = dir.path() / "token-signing-key.pem";
  const SigningKey created = SigningKey::loadOrCreate(file, GetParam());
  EXPECT_EQ(created.algorithm(), GetParam());
  struct stat status {};
  ASSERT_EQ(::stat(file.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u);
  const std::string pem = readText(file);
  EXPECT_TRUE(pem.starts_with("-----BEGIN PRIVATE KEY-----\n")) << pem.substr(0, 40);
  // An existing file decides, whatever a new one would have been.
  const SigningKey again = SigningKey::loadOrCreate(file, testing::otherAlgorithm(GetParam()));
  EXPECT_EQ(again.kid(), created.kid());
  EXPECT_EQ(again.algorithm(), GetParam());
  EXPECT_EQ(SigningKey::load(file).kid(), created.kid());
}

TEST_P(SigningKeyOfEachAlgorithm, GenerateMakesAFreshKeyOfTheAlgorithm) {
  const SigningKey first = SigningKey::generate(GetParam());
  EXPECT_EQ(first.algorithm(), GetParam());
  EXPECT_EQ(first.signatureSize(), key().signatureSize());
  EXPECT_NE(first.kid(), key().kid());
}

TEST(SigningKey, ANewKeyFileIsAnEcP256KeyWithMode0600) {
  TempDir dir;
  const auto file = dir.path() / "token-signing-key.pem";
  const SigningKey created = SigningKey::loadOrCreate(file);
  EXPECT_EQ(created.algorithm(), SigningAlgorithm::ES256);
  struct stat status {};
  ASSERT_EQ(::stat(file.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u);
  // Read back with OpenSSL alone: an EC private key on prime256v1 (P-256).
  const std::string pem = readText(file);
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  const Pkey pkey(PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr));
  BIO_free(bio);
  ASSERT_NE(pkey, nullptr);
  EXPECT_EQ(EVP_PKEY_get_base_id(pkey.get()), EVP_PKEY_EC);
  char group[64] = {};
  std::size_t length = 0;
  ASSERT_EQ(EVP_PKEY_get_utf8_string_param(pkey.get(), OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &length), 1);
  EXPECT_EQ(std::string(group, length), "prime256v1");
  EXPECT_EQ(SigningKey::generate().algorithm(), SigningAlgorithm::ES256);
}

// A fixed P-256 key whose x coordinate starts with a zero byte, made with
//   openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256
// (repeated until `openssl pkey -pubout -outform DER | tail -c 64` began with 00).
constexpr std::string_view kKnownEcKey = R"(-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQggaMKWWD/U6Te9wtg
GWtGBxpDhifzk6DC0yTgohhrksWhRANCAAQAdAQMzTVJ5fq9CDzhcZRuDqQ2WMsv
AAdtVPvT11YrtUlN87jSyhDY3G3CIyHt5Y/oN0yOEAshCgd9YrNQYegS
-----END PRIVATE KEY-----
)";

TEST(SigningKey, AKnownEcKeyHasTheExactJwkAndKid) {
  // Expected values computed with the openssl CLI, independently of this code:
  //   X=$(openssl pkey -in k.pem -pubout -outform DER | tail -c 64 | head -c 32 | basenc --base64url | tr -d '=\n')
  //   Y=$(openssl pkey -in k.pem -pubout -outform DER | tail -c 32 | basenc --base64url | tr -d '=\n')
  //   printf '{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}' "$X" "$Y" |
  //     openssl dgst -sha256 -binary | basenc --base64url | tr -d '=\n'
  // (`openssl pkey -text_pub` shows pub 04:00:74:04:0c:...: x keeps its leading zero byte.)
  TempDir dir;
  const auto file = dir.path() / "known.pem";
  writePrivateFile(file, std::string(kKnownEcKey));
  const SigningKey key = SigningKey::load(file);
  EXPECT_EQ(key.algorithm(), SigningAlgorithm::ES256);
  EXPECT_EQ(key.kid(), "Y-jkca1r4mw4P2Ag1g4Q4NuyHdX5y85b6iPiPk3xQ6w");
  EXPECT_EQ(key.publicJwk(),
            R"({"kty":"EC","kid":"Y-jkca1r4mw4P2Ag1g4Q4NuyHdX5y85b6iPiPk3xQ6w","use":"sig","alg":"ES256",)"
            R"("crv":"P-256","x":"AHQEDM01SeX6vQg84XGUbg6kNljLLwAHbVT709dWK7U",)"
            R"("y":"SU3zuNLKENjcbcIjIe3lj-g3TI4QCyEKB31is1Bh6BI"})");
  EXPECT_EQ(key.signatureSize(), 64u);
}

struct RefusedKey {
  const char* name;
  std::function<Pkey()> make;
  std::string found;  // what the message says the file holds
};

Pkey generateKey(const char* type, const char* curve) { return Pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, type, curve)); }

Pkey generateRsaKey(std::size_t bits) { return Pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", bits)); }

Pkey generateDsaKey() {
  EVP_PKEY_CTX* parameterContext = EVP_PKEY_CTX_new_from_name(nullptr, "DSA", nullptr);
  EVP_PKEY* parameters = nullptr;
  EXPECT_EQ(EVP_PKEY_paramgen_init(parameterContext), 1);
  EXPECT_EQ(EVP_PKEY_CTX_set_dsa_paramgen_bits(parameterContext, 2048), 1);
  EXPECT_EQ(EVP_PKEY_paramgen(parameterContext, &parameters), 1);
  EVP_PKEY_CTX* keyContext = EVP_PKEY_CTX_new_from_pkey(nullptr, parameters, nullptr);
  EVP_PKEY* key = nullptr;
  EXPECT_EQ(EVP_PKEY_keygen_init(keyContext), 1);
  EXPECT_EQ(EVP_PKEY_keygen(keyContext, &key), 1);
  EVP_PKEY_CTX_free(keyContext);
  EVP_PKEY_free(parameters);
  EVP_PKEY_CTX_free(parameterContext);
  return Pkey(key);
}

TEST(SigningKey, RefusesEveryOtherKeyNamingTheFileAndWhatItHolds) {
  const RefusedKey refused[] = {
      {"p384", [] { return generateKey("EC", "P-384"); }, "an EC key on curve secp384r1"},
      {"p521", [] { return generateKey("EC", "P-521"); }, "an EC key on curve secp521r1"},
      {"secp256k1", [] { return generateKey("EC", "secp256k1"); }, "an EC key on curve secp256k1"},
      {"ed25519", [] { return generateKey("ED25519", nullptr); }, "a key of type ED25519"},
      {"x25519", [] { return generateKey("X25519", nullptr); }, "a key of type X25519"},
      {"rsa1024", [] { return generateRsaKey(1024); }, "a 1024-bit RSA key"},
      {"rsa2047", [] { return generateRsaKey(2047); }, "a 2047-bit RSA key"},
      {"dsa", generateDsaKey, "a key of type DSA"},
  };
  TempDir dir;
  for (const RefusedKey& row : refused) {
    const Pkey key = row.make();
    ASSERT_NE(key, nullptr) << row.name;
    const auto file = dir.path() / (std::string(row.name) + ".pem");
    writePrivateFile(file, pemOf(key.get()));
    EXPECT_EQ(loadError(file),
              "token signing key: " + file.string() + " holds " + row.found + std::string(kAcceptedKeys))
        << row.name;
    EXPECT_THROW(SigningKey::loadOrCreate(file), SigningKeyError) << row.name;  // never replaced
  }
}

TEST(SigningKey, RefusesAFileThatIsNoUnencryptedPemPrivateKey) {
  TempDir dir;
  const Pkey ecKey = generateKey("EC", "P-256");
  std::string encrypted;
  {
    BIO* bio = BIO_new(BIO_s_mem());
    ASSERT_EQ(PEM_write_bio_PKCS8PrivateKey(bio, ecKey.get(), EVP_aes_128_cbc(), "passphrase", 10, nullptr, nullptr),
              1);
    char* data = nullptr;
    const long size = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data);
    encrypted.assign(data, static_cast<std::size_t>(size));
    BIO_free(bio);
  }
  std::string publicOnly;
  {
    BIO* bio = BIO_new(BIO_s_mem());
    ASSERT_EQ(PEM_write_bio_PUBKEY(bio, ecKey.get()), 1);
    char* data = nullptr;
    const long size = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data);
    publicOnly.assign(data, static_cast<std::size_t>(size));
    BIO_free(bio);
  }
  const std::pair<const char*, std::string> files[] = {
      {"garbage.pem", "not a key\n"},
      {"empty.pem", ""},
      {"encrypted.pem", encrypted},
      {"public.pem", publicOnly},
      {"truncated.pem", pemOf(ecKey.get()).substr(0, 100)},
  };
  for (const auto& [name, content] : files) {
    const auto file = dir.path() / name;
    writePrivateFile(file, content);
    EXPECT_EQ(loadError(file), "token signing key: " + file.string() + " is not an unencrypted PEM private key")
        << name;
  }
}

TEST(SigningKey, RefusesAKeyFileReadableByOthersOrMissing) {
  TempDir dir;
  const auto file = dir.path() / "key.pem";
  SigningKey::loadOrCreate(file);
  ASSERT_EQ(::chmod(file.c_str(), 0640), 0);
  EXPECT_EQ(loadError(file),
            "token signing key: " + file.string() + " is accessible to group or others; it must have mode 0600");
  const auto missing = dir.path() / "missing.pem";
  EXPECT_EQ(loadError(missing), "token signing key: cannot open " + missing.string() + ": No such file or directory");
}

TEST(SigningKeySet, FindsKeysByKidAndPublishesAllInOrder) {
  // A rotation from RSA to EC: the new EC key signs, the previous RSA key is still published.
  const SigningKey& active = testing::sharedTestKey(SigningAlgorithm::ES256);
  const SigningKey& previous = testing::sharedTestKey(SigningAlgorithm::RS256);
  SigningKeySet keys(active, {previous, active});
  EXPECT_EQ(keys.active().kid(), active.kid());
  ASSERT_TRUE(keys.find(active.kid()).has_value());
  EXPECT_EQ(keys.find(active.kid())->kid(), keys.active().kid());
  ASSERT_TRUE(keys.find(previous.kid()).has_value());
  EXPECT_EQ(keys.find(previous.kid())->algorithm(), SigningAlgorithm::RS256);
  EXPECT_FALSE(keys.find("unknown").has_value());
  EXPECT_FALSE(keys.find("").has_value());
  EXPECT_EQ(keys.kids(), (std::vector<std::string>{active.kid(), previous.kid()}));
  // JK-01/JK-02/JK-04: every key once, the active one first, public members only.
  EXPECT_EQ(keys.jwksJson(), R"({"keys":[)" + active.publicJwk() + "," + previous.publicJwk() + "]}");
  // Replaced as a whole: the set's holders read the next keys.
  keys.replace(SigningKeySet(previous));
  EXPECT_EQ(keys.active().kid(), previous.kid());
  EXPECT_FALSE(keys.find(active.kid()).has_value());
  EXPECT_EQ(keys.jwksJson(), R"({"keys":[)" + previous.publicJwk() + "]}");
  keys.replace(SigningKeySet(active, {previous}));
  EXPECT_TRUE(keys.jwksJson().starts_with(R"({"keys":[{"kty":"EC","kid":")")) << keys.jwksJson();
  EXPECT_NE(keys.jwksJson().find(R"(},{"kty":"RSA","kid":")"), std::string::npos) << keys.jwksJson();
  for (const char* privateMember : {"\"d\"", "\"p\"", "\"q\"", "\"dp\"", "\"dq\"", "\"qi\"", "\"oth\"", "\"k\""}) {
    EXPECT_EQ(keys.jwksJson().find(privateMember), std::string::npos) << privateMember;
  }
}

}  // namespace
}  // namespace codepayload::auth
