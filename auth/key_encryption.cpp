#include "auth/key_encryption.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <algorithm>
#include <climits>
#include <sstream>

#include "auth/openssl_handles.h"
#include "auth/private_file.h"

namespace codepayload::auth {

namespace {

// Changing it changes every derived key: a new format version, never an edit.
constexpr std::string_view kDerivationInfo = "codepayload key-encryption v1";
constexpr std::string_view kCheckAssociatedData = "key-check";
constexpr std::string_view kCheckPlaintext = "codepayload key-encryption key check";

// Wipes a string holding key material on every way out of a scope.
class WipeOnExit {
 public:
  explicit WipeOnExit(std::string& bytes) : bytes_(bytes) {}
  ~WipeOnExit() { OPENSSL_cleanse(bytes_.data(), bytes_.size()); }
  WipeOnExit(const WipeOnExit&) = delete;
  WipeOnExit& operator=(const WipeOnExit&) = delete;

 private:
  std::string& bytes_;
};

std::string octalMode(unsigned mode) {
  std::ostringstream text;
  text << '0' << std::oct << mode;
  return text.str();
}

std::string createCommand(const std::filesystem::path& file) {
  return "(umask 077; head -c 32 /dev/urandom > " + file.string() + ")";
}

unsigned char* bytesOf(std::string& text) { return reinterpret_cast<unsigned char*>(text.data()); }
const unsigned char* bytesOf(std::string_view text) { return reinterpret_cast<const unsigned char*>(text.data()); }

int openSslLength(std::size_t size) {
  if (size > static_cast<std::size_t>(INT_MAX)) throw std::length_error("a value to seal must be under 2 GiB");
  return static_cast<int>(size);
}

}  // namespace

KeyEncryptionKey::KeyEncryptionKey(std::string_view material) {
  if (material.size() < kMinimumMaterialSize) {
    throw KeyEncryptionKeyError("a key-encryption key is at least " + std::to_string(kMinimumMaterialSize) +
                                " random bytes, got " + std::to_string(material.size()));
  }
  const openssl::Kdf kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
  const openssl::KdfContext context(kdf != nullptr ? EVP_KDF_CTX_new(kdf.get()) : nullptr);
  if (context == nullptr) throw std::runtime_error("cannot set up HKDF-SHA-256 (OpenSSL failed)");
  char digest[] = "SHA256";
  const OSSL_PARAM parameters[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<char*>(material.data()), material.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<char*>(kDerivationInfo.data()),
                                        kDerivationInfo.size()),
      OSSL_PARAM_construct_end()};
  if (EVP_KDF_derive(context.get(), key_.data(), key_.size(), parameters) != 1) {
    OPENSSL_cleanse(key_.data(), key_.size());
    throw std::runtime_error("HKDF-SHA-256 failed (OpenSSL)");
  }
}

KeyEncryptionKey::~KeyEncryptionKey() { OPENSSL_cleanse(key_.data(), key_.size()); }

KeyEncryptionKey KeyEncryptionKey::fromBytes(std::string_view material) { return KeyEncryptionKey(material); }

KeyEncryptionKey KeyEncryptionKey::load(const std::filesystem::path& file) {
  std::string material;
  const WipeOnExit wipe(material);
  try {
    material = readPrivateFile(file);
  } catch (const ExposedPrivateFileError& error) {
    throw KeyEncryptionKeyError("key-encryption key " + file.string() + " has mode " + octalMode(error.mode) +
                                ", which lets group or others access it; run chmod 600 " + file.string());
  } catch (const PrivateFileError& error) {
    throw KeyEncryptionKeyError("key-encryption key: " + std::string(error.what()) +
                                "; this service must be able to read it (a new installation creates it with " +
                                createCommand(file) + ")");
  }
  if (material.size() < kMinimumMaterialSize) {
    throw KeyEncryptionKeyError("key-encryption key " + file.string() + " holds " + std::to_string(material.size()) +
                                " bytes; a key-encryption key is at least " + std::to_string(kMinimumMaterialSize) +
                                " random bytes, e.g. " + createCommand(file));
  }
  return KeyEncryptionKey(material);
}

// The cipher's associated data is the version byte followed by the caller's,
// so a value relabelled with another version does not open either.
std::string KeyEncryptionKey::seal(std::string_view plaintext, std::string_view associatedData) const {
  const int plaintextLength = openSslLength(plaintext.size());
  const int associatedLength = openSslLength(associatedData.size());
  std::string sealed(kOverhead + plaintext.size(), '\0');
  unsigned char* const version = bytesOf(sealed);
  unsigned char* const nonce = version + 1;
  unsigned char* const ciphertext = nonce + kNonceSize;
  unsigned char* const tag = ciphertext + plaintext.size();
  *version = kVersion;
  if (RAND_bytes(nonce, static_cast<int>(kNonceSize)) != 1) {
    throw std::runtime_error("the system random number generator failed (RAND_bytes)");
  }

  const openssl::CipherContext context(EVP_CIPHER_CTX_new());
  int length = 0;
  bool done = context != nullptr &&
              EVP_EncryptInit_ex2(context.get(), EVP_aes_256_gcm(), key_.data(), nonce, nullptr) == 1 &&
              EVP_EncryptUpdate(context.get(), nullptr, &length, version, 1) == 1;
  if (done && associatedLength > 0) {
    done = EVP_EncryptUpdate(context.get(), nullptr, &length, bytesOf(associatedData), associatedLength) == 1;
  }
  if (done && plaintextLength > 0) {
    done = EVP_EncryptUpdate(context.get(), ciphertext, &length, bytesOf(plaintext), plaintextLength) == 1 &&
           length == plaintextLength;
  }
  int finalLength = 0;
  done = done && EVP_EncryptFinal_ex(context.get(), tag, &finalLength) == 1 && finalLength == 0 &&
         EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagSize), tag) == 1;
  if (!done) {
    OPENSSL_cleanse(sealed.data(), sealed.size());
    throw std::runtime_error("AES-256-GCM encryption failed (OpenSSL)");
  }
  return sealed;
}

std::string KeyEncryptionKey::open(std::string_view sealed, std::string_view associatedData,
                                   std::string_view what) const {
  const std::string cannot = "cannot decrypt " + std::string(what) + ": ";
  if (!sealed.empty() && static_cast<unsigned char>(sealed.front()) != kVersion) {
    throw SealedValueError(SealedValueError::Kind::UnknownVersion,
                           cannot + "its format version is " +
                               std::to_string(static_cast<unsigned char>(sealed.front())) +
                               ", and this build reads only version " + std::to_string(kVersion));
  }
  if (sealed.size() < kOverhead) {
    throw SealedValueError(SealedValueError::Kind::TooShort, cannot + "it holds " + std::to_string(sealed.size()) +
                                                                 " bytes, fewer than the " + std::to_string(kOverhead) +
                                                                 " of any sealed value");
  }
  const int associatedLength = openSslLength(associatedData.size());
  const std::size_t plaintextSize = sealed.size() - kOverhead;
  const int ciphertextLength = openSslLength(plaintextSize);
  const unsigned char* const version = bytesOf(sealed);
  const unsigned char* const nonce = version + 1;
  const unsigned char* const ciphertext = nonce + kNonceSize;
  std::array<unsigned char, kTagSize> tag{};
  std::copy_n(ciphertext + plaintextSize, kTagSize, tag.begin());

  std::string plaintext(plaintextSize, '\0');
  const openssl::CipherContext context(EVP_CIPHER_CTX_new());
  int length = 0;
  bool ready = context != nullptr &&
               EVP_DecryptInit_ex2(context.get(), EVP_aes_256_gcm(), key_.data(), nonce, nullptr) == 1 &&
               EVP_DecryptUpdate(context.get(), nullptr, &length, version, 1) == 1;
  if (ready && associatedLength > 0) {
    ready = EVP_DecryptUpdate(context.get(), nullptr, &length, bytesOf(associatedData), associatedLength) == 1;
  }
  if (ready && ciphertextLength > 0) {
    ready = EVP_DecryptUpdate(context.get(), bytesOf(plaintext), &length, ciphertext, ciphertextLength) == 1 &&
            length == ciphertextLength;
  }
  ready =
      ready && EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagSize), tag.data()) == 1;
  if (!ready) {
    OPENSSL_cleanse(plaintext.data(), plaintext.size());
    throw std::runtime_error("AES-256-GCM decryption failed (OpenSSL)");
  }
  int finalLength = 0;
  if (EVP_DecryptFinal_ex(context.get(), bytesOf(plaintext) + plaintextSize, &finalLength) != 1) {
    // Nothing decrypted before the tag failed leaves this function.
    OPENSSL_cleanse(plaintext.data(), plaintext.size());
    throw SealedValueError(SealedValueError::Kind::NotAuthentic,
                           cannot + "the key-encryption key does not match, or the value was altered");
  }
  return plaintext;
}

std::string KeyEncryptionKey::sealCheck() const { return seal(kCheckPlaintext, kCheckAssociatedData); }

bool KeyEncryptionKey::matchesCheck(std::string_view sealedCheck) const {
  try {
    const std::string plaintext = open(sealedCheck, kCheckAssociatedData, "the key check");
    return plaintext == kCheckPlaintext;
  } catch (const SealedValueError& error) {
    if (error.kind == SealedValueError::Kind::NotAuthentic) return false;
    throw;
  }
}

}  // namespace codepayload::auth
