#include "server/auth/signing_keys.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <Poco/Exception.h>

#include <sstream>

#include "server/auth/base64.h"
#include "server/auth/private_file.h"

namespace codepayload::auth {

namespace {

constexpr int kMinimumBits = 2048;

std::string sha256(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw SigningKeyError("SHA-256 failed");
  }
  return std::string(reinterpret_cast<const char*>(digest), length);
}

std::string privateKeyPem(const Poco::Crypto::RSAKey& key) {
  std::ostringstream privateStream;
  key.save(nullptr, &privateStream);
  return privateStream.str();
}

Poco::SharedPtr<Poco::Crypto::RSAKey> rsaKeyFromPem(const std::string& pem, const std::string& origin) {
  try {
    std::istringstream privateStream(pem);
    return new Poco::Crypto::RSAKey(nullptr, &privateStream);
  } catch (const Poco::Exception& error) {
    throw SigningKeyError(origin + " is not a PEM RSA private key: " + error.displayText());
  }
}

}  // namespace

SigningKey::SigningKey(Poco::SharedPtr<Poco::Crypto::RSAKey> rsaKey) {
  auto material = std::make_shared<Material>();
  const auto modulus = rsaKey->modulus();
  const auto exponent = rsaKey->encryptionExponent();
  if (modulus.size() * 8 < kMinimumBits) {
    throw SigningKeyError("the token signing key has " + std::to_string(modulus.size() * 8) +
                          " bits; at least 2048 are required");
  }
  const std::string n = encodeBase64Url(std::span<const unsigned char>(modulus.data(), modulus.size()));
  const std::string e = encodeBase64Url(std::span<const unsigned char>(exponent.data(), exponent.size()));
  // RFC 7638 §3.2: the required members, lexicographic order, no whitespace.
  material->kid = encodeBase64Url(sha256(R"({"e":")" + e + R"(","kty":"RSA","n":")" + n + R"("})"));
  material->publicJwk = R"({"kty":"RSA","kid":")" + material->kid + R"(","use":"sig","alg":"RS256","n":")" + n +
                        R"(","e":")" + e + R"("})";
  material->signatureSize = modulus.size();
  material->signer = std::make_unique<Poco::JWT::Signer>(rsaKey);
  material->signer->setAlgorithms({Poco::JWT::Signer::ALGO_RS256});
  material->rsaKey = std::move(rsaKey);
  material_ = std::move(material);
}

SigningKey SigningKey::generate(int bits) {
  if (bits < kMinimumBits) throw SigningKeyError("a token signing key needs at least 2048 bits");
  try {
    return SigningKey(new Poco::Crypto::RSAKey(static_cast<Poco::Crypto::RSAKey::KeyLength>(bits),
                                               Poco::Crypto::RSAKey::EXP_LARGE));
  } catch (const Poco::Exception& error) {
    throw SigningKeyError("cannot generate an RSA key: " + error.displayText());
  }
}

SigningKey SigningKey::load(const std::filesystem::path& pemFile) {
  std::string pem;
  try {
    pem = readPrivateFile(pemFile);
  } catch (const PrivateFileError& error) {
    throw SigningKeyError(std::string("token signing key: ") + error.what());
  }
  SigningKey key(rsaKeyFromPem(pem, pemFile.string()));
  OPENSSL_cleanse(pem.data(), pem.size());
  return key;
}

SigningKey SigningKey::loadOrCreate(const std::filesystem::path& pemFile) {
  std::string pem;
  try {
    pem = readOrCreatePrivateFile(pemFile, [] { return privateKeyPem(*generate().rsaKey()); });
  } catch (const PrivateFileError& error) {
    throw SigningKeyError(std::string("token signing key: ") + error.what());
  }
  SigningKey key(rsaKeyFromPem(pem, pemFile.string()));
  OPENSSL_cleanse(pem.data(), pem.size());
  return key;
}

std::string SigningKey::publicKeyPem() const {
  std::ostringstream publicStream;
  material_->rsaKey->save(&publicStream);
  return publicStream.str();
}

SigningKeySet::SigningKeySet(SigningKey active, std::vector<SigningKey> publishedOnly) {
  keys_.reserve(publishedOnly.size() + 1);
  keys_.push_back(std::move(active));
  for (SigningKey& key : publishedOnly) {
    if (find(key.kid()) == nullptr) keys_.push_back(std::move(key));
  }
  jwksJson_ = R"({"keys":[)";
  for (std::size_t index = 0; index < keys_.size(); ++index) {
    if (index > 0) jwksJson_.push_back(',');
    jwksJson_ += keys_[index].publicJwk();
  }
  jwksJson_ += "]}";
}

const SigningKey* SigningKeySet::find(std::string_view kid) const {
  for (const SigningKey& key : keys_) {
    if (key.kid() == kid) return &key;
  }
  return nullptr;
}

}  // namespace codepayload::auth
