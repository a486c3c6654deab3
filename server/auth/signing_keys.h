// RS256 signing keys for access tokens, and their JWKS publication.
//
// The active key is an RSA 2048 private key in PEM form in the data directory
// (mode 0600), generated on first start. Its `kid` is its RFC 7638 JWK
// thumbprint. A SigningKeySet holds the active key plus any keys that are only
// published and accepted (the previous key during a rotation, or the next one
// before it starts signing).
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <Poco/Crypto/RSAKey.h>
#include <Poco/JWT/Signer.h>
#include <Poco/SharedPtr.h>

namespace codepayload::auth {

// A key file that cannot be created or read, is not an RSA key of at least
// 2048 bits, or is readable by group/others.
struct SigningKeyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class SigningKey {
 public:
  // Reads the PEM private key in `pemFile`; when the file does not exist,
  // generates an RSA 2048 key and writes it atomically with mode 0600.
  static SigningKey loadOrCreate(const std::filesystem::path& pemFile);
  // Reads an existing PEM private key file (no creation).
  static SigningKey load(const std::filesystem::path& pemFile);
  // A fresh in-memory RSA key (tests); `bits` >= 2048.
  static SigningKey generate(int bits = 2048);

  // RFC 7638 thumbprint (base64url SHA-256 of {"e","kty","n"}): 43 characters.
  const std::string& kid() const { return material_->kid; }
  // The public JWK: {"kty":"RSA","kid":...,"use":"sig","alg":"RS256","n":...,"e":...}.
  const std::string& publicJwk() const { return material_->publicJwk; }
  // The public key in PEM ("-----BEGIN PUBLIC KEY-----...").
  std::string publicKeyPem() const;

  // The RS256 signature length in bytes (the modulus size: 256 for 2048 bits).
  std::size_t signatureSize() const { return material_->signatureSize; }

  const Poco::SharedPtr<Poco::Crypto::RSAKey>& rsaKey() const { return material_->rsaKey; }
  // A Poco signer allowing exactly RS256 (setAlgorithms, never the HS256 default).
  const Poco::JWT::Signer& signer() const { return *material_->signer; }

 private:
  struct Material {
    Poco::SharedPtr<Poco::Crypto::RSAKey> rsaKey;
    std::unique_ptr<Poco::JWT::Signer> signer;
    std::string kid;
    std::string publicJwk;
    std::size_t signatureSize = 0;
  };
  explicit SigningKey(Poco::SharedPtr<Poco::Crypto::RSAKey> rsaKey);

  std::shared_ptr<const Material> material_;
};

class SigningKeySet {
 public:
  explicit SigningKeySet(SigningKey active, std::vector<SigningKey> publishedOnly = {});

  const SigningKey& active() const { return keys_.front(); }
  // The key with this kid (active or published), or nullptr.
  const SigningKey* find(std::string_view kid) const;
  // {"keys":[<active>, <published>...]}, for GET /.well-known/jwks.json.
  const std::string& jwksJson() const { return jwksJson_; }

 private:
  std::vector<SigningKey> keys_;
  std::string jwksJson_;
};

}  // namespace codepayload::auth
