#include "auth/secret_hasher.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <string>

#include "auth/private_file.h"

namespace codepayload::auth {

namespace {

constexpr std::size_t kSha256BlockSize = 64;

// A SHA-256 context that has absorbed the pepper XOR `pad`, zero-filled to
// the block size (RFC 2104).
openssl::DigestContext paddedContext(std::string_view pepper, unsigned char pad) {
  std::array<unsigned char, kSha256BlockSize> block;
  block.fill(pad);
  for (std::size_t index = 0; index < pepper.size(); ++index) block[index] ^= static_cast<unsigned char>(pepper[index]);
  openssl::DigestContext context(EVP_MD_CTX_new());
  const bool ready = context != nullptr && EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) == 1 &&
                     EVP_DigestUpdate(context.get(), block.data(), block.size()) == 1;
  OPENSSL_cleanse(block.data(), block.size());
  if (!ready) throw std::runtime_error("cannot set up HMAC-SHA-256 (OpenSSL failed)");
  return context;
}

}  // namespace

SecretHasher::SecretHasher(std::string_view pepper) {
  if (pepper.size() != kPepperSize) {
    throw PepperError("a pepper must be exactly " + std::to_string(kPepperSize) + " bytes, got " +
                      std::to_string(pepper.size()));
  }
  innerPadded_ = paddedContext(pepper, 0x36);
  outerPadded_ = paddedContext(pepper, 0x5c);
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
  SecretDigest inner{};
  SecretDigest digest{};
  unsigned int innerLength = 0;
  unsigned int length = 0;
  const openssl::DigestContext work(EVP_MD_CTX_new());
  const bool done = work != nullptr && EVP_MD_CTX_copy_ex(work.get(), innerPadded_.get()) == 1 &&
                    EVP_DigestUpdate(work.get(), secret.data(), secret.size()) == 1 &&
                    EVP_DigestFinal_ex(work.get(), inner.data(), &innerLength) == 1 &&
                    EVP_MD_CTX_copy_ex(work.get(), outerPadded_.get()) == 1 &&
                    EVP_DigestUpdate(work.get(), inner.data(), inner.size()) == 1 &&
                    EVP_DigestFinal_ex(work.get(), digest.data(), &length) == 1;
  OPENSSL_cleanse(inner.data(), inner.size());
  if (!done || innerLength != kSecretDigestSize || length != kSecretDigestSize) {
    throw std::runtime_error("HMAC-SHA-256 failed");
  }
  return digest;
}

bool SecretHasher::equal(const SecretDigest& left, const SecretDigest& right) {
  return CRYPTO_memcmp(left.data(), right.data(), kSecretDigestSize) == 0;
}

}  // namespace codepayload::auth
