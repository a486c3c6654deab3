#include "auth/secret_hasher.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cstring>
#include <string>

#include "auth/private_file.h"

namespace codepayload::auth {

SecretHasher::SecretHasher(std::string_view pepper) {
  if (pepper.size() != kPepperSize) {
    throw PepperError("a pepper must be exactly " + std::to_string(kPepperSize) + " bytes, got " +
                      std::to_string(pepper.size()));
  }
  std::memcpy(pepper_.data(), pepper.data(), kPepperSize);
}

SecretHasher SecretHasher::loadOrCreate(const std::filesystem::path& pepperFile) {
  std::string pepper;
  try {
    pepper = readOrCreatePrivateFile(pepperFile, [] {
      std::string fresh(kPepperSize, '\0');
      if (RAND_bytes(reinterpret_cast<unsigned char*>(fresh.data()), static_cast<int>(fresh.size())) != 1) {
        throw PrivateFileError("the system random number generator failed (RAND_bytes)");
      }
      return fresh;
    });
  } catch (const PrivateFileError& error) {
    throw PepperError(std::string("client secret pepper: ") + error.what());
  }
  if (pepper.size() != kPepperSize) {
    const std::size_t size = pepper.size();
    OPENSSL_cleanse(pepper.data(), pepper.size());
    throw PepperError("client secret pepper " + pepperFile.string() + " has " + std::to_string(size) +
                      " bytes; it must have exactly " + std::to_string(kPepperSize));
  }
  SecretHasher hasher(pepper);
  OPENSSL_cleanse(pepper.data(), pepper.size());
  return hasher;
}

SecretDigest SecretHasher::digest(std::string_view secret) const {
  SecretDigest digest{};
  unsigned int length = 0;
  const unsigned char* result =
      HMAC(EVP_sha256(), pepper_.data(), static_cast<int>(pepper_.size()),
           reinterpret_cast<const unsigned char*>(secret.data()), secret.size(), digest.data(), &length);
  if (result == nullptr || length != kSecretDigestSize) {
    throw std::runtime_error("HMAC-SHA-256 failed");
  }
  return digest;
}

bool SecretHasher::equal(const SecretDigest& left, const SecretDigest& right) {
  return CRYPTO_memcmp(left.data(), right.data(), kSecretDigestSize) == 0;
}

}  // namespace codepayload::auth
