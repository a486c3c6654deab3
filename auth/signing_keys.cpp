#include "auth/signing_keys.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <Poco/Crypto/EVPPKey.h>
#include <Poco/Exception.h>

#include <climits>
#include <sstream>

#include "auth/base64.h"
#include "auth/openssl_handles.h"
#include "auth/private_file.h"
#include "auth/sha256.h"

namespace codepayload::auth {

namespace {

constexpr int kMinimumRsaBits = 2048;
constexpr std::size_t kGeneratedRsaBits = 2048;
constexpr int kP256CoordinateBytes = 32;
constexpr std::size_t kEs256SignatureBytes = 2 * kP256CoordinateBytes;  // R || S
constexpr std::string_view kP256GroupName = "prime256v1";               // OpenSSL's name of P-256
constexpr std::string_view kAcceptedKeys =
    "; it must be an EC P-256 key (ES256) or an RSA key of at least 2048 bits (RS256)";

using openssl::Bignum;
using openssl::Bio;
using openssl::PrivateKey;

// The RFC 7638 thumbprint of a JWK's required members: base64url SHA-256.
std::string thumbprint(std::string_view requiredMembers) {
  openssl::Sha256Digest digest;
  if (!openssl::sha256(requiredMembers, digest)) throw SigningKeyError("SHA-256 failed");
  return encodeBase64Url(digest);
}

// An encrypted key would otherwise make OpenSSL prompt on the terminal.
int refusePassphrase(char* /*buffer*/, int /*size*/, int /*writing*/, void* /*user*/) { return -1; }

// The private key in `pem`, or null when there is none OpenSSL can read.
PrivateKey readPrivateKey(const std::string& pem) {
  if (pem.size() > static_cast<std::size_t>(INT_MAX)) return nullptr;
  const Bio bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  if (bio == nullptr) throw SigningKeyError("out of memory reading a token signing key");
  PrivateKey key(PEM_read_bio_PrivateKey(bio.get(), nullptr, refusePassphrase, nullptr));
  ERR_clear_error();  // a failed read leaves its reasons queued on this thread
  return key;
}

// PKCS #8 PEM of a private key, through a buffer that is cleansed when freed.
std::string privateKeyPem(EVP_PKEY* key) {
  const Bio bio(BIO_new(BIO_s_secmem()));
  if (bio == nullptr || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    ERR_clear_error();
    throw SigningKeyError("cannot write a generated token signing key as PEM");
  }
  char* data = nullptr;
  const long size = BIO_ctrl(bio.get(), BIO_CTRL_INFO, 0, &data);
  return std::string(data, static_cast<std::size_t>(size));
}

PrivateKey generatePrivateKey(SigningAlgorithm algorithm) {
  PrivateKey key(algorithm == SigningAlgorithm::ES256 ? EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256")
                                                      : EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", kGeneratedRsaBits));
  if (key == nullptr) {
    ERR_clear_error();
    throw SigningKeyError("cannot generate a token signing key for " + std::string(signingAlgorithmName(algorithm)));
  }
  return key;
}

// The named curve of an EC key ("" when it has explicit parameters).
std::string curveName(const EVP_PKEY* key) {
  char name[80];
  std::size_t length = 0;
  if (EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof name, &length) != 1) {
    ERR_clear_error();
    return {};
  }
  return std::string(name, length);
}

Bignum bignumParameter(const EVP_PKEY* key, const char* parameter) {
  BIGNUM* number = nullptr;
  if (EVP_PKEY_get_bn_param(key, parameter, &number) != 1) {
    ERR_clear_error();
    throw SigningKeyError(std::string("cannot read the parameter ") + parameter + " of a token signing key");
  }
  return Bignum(number);
}

// base64url of a public-key parameter as unsigned big-endian bytes; with
// `width` > 0, left-padded with zeros to exactly `width` bytes.
std::string base64UrlParameter(const EVP_PKEY* key, const char* parameter, int width = 0) {
  const Bignum number = bignumParameter(key, parameter);
  const int length = width > 0 ? width : BN_num_bytes(number.get());
  std::string bytes(static_cast<std::size_t>(length), '\0');
  auto* out = reinterpret_cast<unsigned char*>(bytes.data());
  if (BN_bn2binpad(number.get(), out, length) != length) {
    throw SigningKeyError(std::string("the parameter ") + parameter + " of a token signing key is too large");
  }
  return encodeBase64Url(bytes);
}

}  // namespace

std::string_view signingAlgorithmName(SigningAlgorithm algorithm) {
  switch (algorithm) {
    case SigningAlgorithm::ES256: return Poco::JWT::Signer::ALGO_ES256;
    case SigningAlgorithm::RS256: return Poco::JWT::Signer::ALGO_RS256;
  }
  return "unknown";
}

SigningKey SigningKey::fromPem(const std::string& pem, const std::string& origin) {
  const PrivateKey key = readPrivateKey(pem);
  if (key == nullptr) throw SigningKeyError(origin + " is not an unencrypted PEM private key");
  auto material = std::make_shared<Material>();
  try {
    switch (EVP_PKEY_get_base_id(key.get())) {
      case EVP_PKEY_EC: {
        const std::string curve = curveName(key.get());
        if (curve != kP256GroupName) {
          throw SigningKeyError(origin + " holds an EC key on " +
                                (curve.empty() ? std::string("an unnamed curve") : "curve " + curve) +
                                std::string(kAcceptedKeys));
        }
        const std::string x = base64UrlParameter(key.get(), OSSL_PKEY_PARAM_EC_PUB_X, kP256CoordinateBytes);
        const std::string y = base64UrlParameter(key.get(), OSSL_PKEY_PARAM_EC_PUB_Y, kP256CoordinateBytes);
        material->algorithm = SigningAlgorithm::ES256;
        // RFC 7638 §3.2: the required members, lexicographic order, no whitespace.
        material->kid = thumbprint(R"({"crv":"P-256","kty":"EC","x":")" + x + R"(","y":")" + y + R"("})");
        material->publicJwk = R"({"kty":"EC","kid":")" + material->kid +
                              R"(","use":"sig","alg":"ES256","crv":"P-256","x":")" + x + R"(","y":")" + y + R"("})";
        material->signatureSize = kEs256SignatureBytes;
        material->ecKey = new Poco::Crypto::ECKey(Poco::Crypto::EVPPKey(key.get()));
        material->signer = std::make_unique<Poco::JWT::Signer>(material->ecKey);
        break;
      }
      case EVP_PKEY_RSA: {
        const int bits = EVP_PKEY_get_bits(key.get());
        if (bits < kMinimumRsaBits) {
          throw SigningKeyError(origin + " holds a " + std::to_string(bits) + "-bit RSA key" +
                                std::string(kAcceptedKeys));
        }
        const std::string n = base64UrlParameter(key.get(), OSSL_PKEY_PARAM_RSA_N);
        const std::string e = base64UrlParameter(key.get(), OSSL_PKEY_PARAM_RSA_E);
        material->algorithm = SigningAlgorithm::RS256;
        material->kid = thumbprint(R"({"e":")" + e + R"(","kty":"RSA","n":")" + n + R"("})");
        material->publicJwk = R"({"kty":"RSA","kid":")" + material->kid + R"(","use":"sig","alg":"RS256","n":")" + n +
                              R"(","e":")" + e + R"("})";
        material->signatureSize = static_cast<std::size_t>(EVP_PKEY_get_size(key.get()));
        material->rsaKey = new Poco::Crypto::RSAKey(Poco::Crypto::EVPPKey(key.get()));
        material->signer = std::make_unique<Poco::JWT::Signer>(material->rsaKey);
        break;
      }
      default: {
        const char* type = EVP_PKEY_get0_type_name(key.get());
        throw SigningKeyError(origin + " holds a key of type " + (type == nullptr ? "unknown" : type) +
                              std::string(kAcceptedKeys));
      }
    }
  } catch (const Poco::Exception& error) {
    ERR_clear_error();
    throw SigningKeyError(origin + " cannot be used: " + error.displayText());
  }
  try {
    material->jwsSigner = std::make_unique<JwsSigner>(key.get(), material->algorithm);
  } catch (const JwsSigningError& error) {
    throw SigningKeyError(origin + " cannot be used: " + error.what());
  }
  material->algorithmName = signingAlgorithmName(material->algorithm);
  material->signer->setAlgorithms({material->algorithmName});
  return SigningKey(std::move(material));
}

std::string SigningKey::generatePem(SigningAlgorithm algorithm) {
  return privateKeyPem(generatePrivateKey(algorithm).get());
}

SigningKey SigningKey::generate(SigningAlgorithm algorithm) {
  std::string pem = generatePem(algorithm);
  SigningKey key = fromPem(pem, "a generated token signing key");
  OPENSSL_cleanse(pem.data(), pem.size());
  return key;
}

SigningKey SigningKey::load(const std::filesystem::path& pemFile) {
  std::string pem;
  try {
    pem = readPrivateFile(pemFile);
  } catch (const PrivateFileError& error) {
    throw SigningKeyError(std::string("token signing key: ") + error.what());
  }
  SigningKey key = fromPem(pem, "token signing key: " + pemFile.string());
  OPENSSL_cleanse(pem.data(), pem.size());
  return key;
}

SigningKey SigningKey::loadOrCreate(const std::filesystem::path& pemFile, SigningAlgorithm whenCreating) {
  std::string pem;
  try {
    pem = readOrCreatePrivateFile(pemFile,
                                  [whenCreating] { return privateKeyPem(generatePrivateKey(whenCreating).get()); });
  } catch (const PrivateFileError& error) {
    throw SigningKeyError(std::string("token signing key: ") + error.what());
  }
  SigningKey key = fromPem(pem, "token signing key: " + pemFile.string());
  OPENSSL_cleanse(pem.data(), pem.size());
  return key;
}

const Poco::Crypto::KeyPair& SigningKey::keyPair() const {
  if (material_->ecKey) return *material_->ecKey;
  return *material_->rsaKey;
}

std::string SigningKey::publicKeyPem() const {
  std::ostringstream publicStream;
  keyPair().save(&publicStream);
  return publicStream.str();
}

SigningKeySet::SigningKeySet(SigningKey active, std::vector<SigningKey> publishedOnly) {
  auto keys = std::make_shared<Keys>();
  keys->keys.reserve(publishedOnly.size() + 1);
  keys->keys.push_back(std::move(active));
  for (SigningKey& key : publishedOnly) {
    const bool listed = std::any_of(keys->keys.begin(), keys->keys.end(),
                                    [&key](const SigningKey& other) { return other.kid() == key.kid(); });
    if (!listed) keys->keys.push_back(std::move(key));
  }
  keys->jwksJson = R"({"keys":[)";
  for (std::size_t index = 0; index < keys->keys.size(); ++index) {
    if (index > 0) keys->jwksJson.push_back(',');
    keys->jwksJson += keys->keys[index].publicJwk();
  }
  keys->jwksJson += "]}";
  versions_ = std::make_unique<common::Published<Keys>>(std::move(keys));
}

std::optional<SigningKey> SigningKeySet::find(std::string_view kid) const {
  const std::shared_ptr<const Keys> keys = current();
  for (const SigningKey& key : keys->keys) {
    if (key.kid() == kid) return key;
  }
  return std::nullopt;
}

std::vector<std::string> SigningKeySet::kids() const {
  std::vector<std::string> kids;
  for (const SigningKey& key : current()->keys) kids.push_back(key.kid());
  return kids;
}

}  // namespace codepayload::auth
