// Signing keys for access tokens, and their JWKS publication.
//
// The algorithm follows the key: an EC P-256 private key signs ES256, an RSA
// private key of at least 2048 bits signs RS256; any other key is refused.
// Where the keys are kept is the registry's business (app/registry.h): PEM
// files in an SQLite registry's data directory, sealed rows in a PostgreSQL
// one; a new installation's first key is EC P-256. A key's `kid` is its
// RFC 7638 JWK thumbprint. A SigningKeySet holds the active key plus any keys
// that are only published and accepted (the previous key during a rotation,
// or the next one before it starts signing); each may be EC or RSA,
// independently.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <Poco/Crypto/ECKey.h>
#include <Poco/Crypto/KeyPair.h>
#include <Poco/Crypto/RSAKey.h>
#include <Poco/JWT/Signer.h>
#include <Poco/SharedPtr.h>

#include "auth/jws_signer.h"
#include "common/published.h"
#include "auth/signing_algorithm.h"

namespace codepayload::auth {

// A key file that cannot be created or read, does not hold an EC P-256 or an
// RSA (>= 2048 bits) private key, or is readable by group/others.
struct SigningKeyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class SigningKey {
 public:
  // Reads the PEM private key in `pemFile`; when the file does not exist,
  // generates a key for `whenCreating` (EC P-256 or RSA 2048) and writes it
  // atomically with mode 0600 (PKCS #8 PEM).
  static SigningKey loadOrCreate(const std::filesystem::path& pemFile,
                                 SigningAlgorithm whenCreating = SigningAlgorithm::ES256);
  // Reads an existing PEM private key file (no creation).
  static SigningKey load(const std::filesystem::path& pemFile);
  // A fresh in-memory key: EC P-256 for ES256, RSA 2048 for RS256.
  static SigningKey generate(SigningAlgorithm algorithm = SigningAlgorithm::ES256);
  // A fresh private key of `algorithm`'s kind, as PKCS #8 PEM, for a caller
  // that stores it (the caller wipes the string).
  static std::string generatePem(SigningAlgorithm algorithm);
  // The key in `pem` (a PEM private key); `origin` names it in errors.
  static SigningKey fromPem(const std::string& pem, const std::string& origin);

  // Which algorithm the key signs with, and its name as a JWS "alg" value
  // ("ES256" or "RS256", the same string Poco::JWT uses).
  SigningAlgorithm algorithm() const { return material_->algorithm; }
  const std::string& algorithmName() const { return material_->algorithmName; }

  // RFC 7638 thumbprint, 43 characters: base64url SHA-256 of the required
  // members in lexicographic order, {"crv","kty","x","y"} for EC and
  // {"e","kty","n"} for RSA.
  const std::string& kid() const { return material_->kid; }
  // The public JWK:
  //   {"kty":"EC","kid":...,"use":"sig","alg":"ES256","crv":"P-256","x":...,"y":...}
  //   {"kty":"RSA","kid":...,"use":"sig","alg":"RS256","n":...,"e":...}
  // with x and y the 32-byte big-endian coordinates (left-padded with zeros).
  const std::string& publicJwk() const { return material_->publicJwk; }
  // The public key in PEM ("-----BEGIN PUBLIC KEY-----...").
  std::string publicKeyPem() const;

  // The exact length in bytes of a signature by this key: 64 for ES256 (R||S,
  // RFC 7518 §3.4), the modulus size for RS256 (256 for 2048 bits).
  std::size_t signatureSize() const { return material_->signatureSize; }

  // The Poco key (an ECKey or an RSAKey), private half included.
  const Poco::Crypto::KeyPair& keyPair() const;
  // The JWS signature of `signingInput` ("<header>.<payload>") by this key,
  // signatureSize() bytes (jws_signer.h). Thread-safe; throws JwsSigningError.
  std::string sign(std::string_view signingInput) const { return material_->jwsSigner->sign(signingInput); }
  // A Poco signer allowing exactly algorithmName() (setAlgorithms, never the
  // HS256 default), for verifying tokens.
  const Poco::JWT::Signer& signer() const { return *material_->signer; }

 private:
  struct Material {
    SigningAlgorithm algorithm = SigningAlgorithm::ES256;
    std::string algorithmName;
    Poco::SharedPtr<Poco::Crypto::ECKey> ecKey;    // set for ES256
    Poco::SharedPtr<Poco::Crypto::RSAKey> rsaKey;  // set for RS256
    std::unique_ptr<Poco::JWT::Signer> signer;
    std::unique_ptr<JwsSigner> jwsSigner;
    std::string kid;
    std::string publicJwk;
    std::size_t signatureSize = 0;
  };
  explicit SigningKey(std::shared_ptr<const Material> material) : material_(std::move(material)) {}

  std::shared_ptr<const Material> material_;
};

// The keys in force: replaced as a whole when the registry's keys change (a
// rotation), while the issuer and the verifier that hold it read on; every
// read sees one version. Thread-safe; movable until shared.
class SigningKeySet {
 public:
  explicit SigningKeySet(SigningKey active, std::vector<SigningKey> publishedOnly = {});

  SigningKey active() const { return current()->keys.front(); }
  // The key with this kid (active or published), or nullopt.
  std::optional<SigningKey> find(std::string_view kid) const;
  // {"keys":[<active>, <published>...]}, for GET /.well-known/jwks.json.
  std::string jwksJson() const { return current()->jwksJson; }
  // The kids, the active one first.
  std::vector<std::string> kids() const;

  // Takes the keys of `next` from now on.
  void replace(const SigningKeySet& next) { versions_->replace(next.current()); }

 private:
  struct Keys {
    std::vector<SigningKey> keys;  // the active one first
    std::string jwksJson;
  };
  std::shared_ptr<const Keys> current() const { return versions_->current(); }

  std::unique_ptr<common::Published<Keys>> versions_;
};

}  // namespace codepayload::auth
