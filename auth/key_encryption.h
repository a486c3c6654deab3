// Secrets kept in a shared database (token-signing private keys, the pepper)
// are stored sealed under a key-encryption key (KEK) that never enters the
// database: a file of at least 32 random bytes, mode 0600, on each host.
//
// A sealed value is binary:
//   version (1 byte, 0x01) | nonce (12 bytes) | ciphertext (plaintext's size) | tag (16 bytes)
// AES-256-GCM with a fresh random nonce per seal, under a key derived from
// the file's bytes with HKDF-SHA-256 (info "codepayload key-encryption v1",
// no salt). The version byte and the caller's associated data are
// authenticated; the associated data is not stored: callers pass where the
// value lives (its table and row id, e.g. "signing_keys/7"), so a sealed value
// copied into another row does not open there.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace codepayload::auth {

// A key-encryption key file that cannot be read, is shorter than 32 bytes,
// or is accessible to group or others; the message names the file and the fix.
struct KeyEncryptionKeyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A sealed value that does not open. The message names what was being
// decrypted (the caller's words) and never holds key or plaintext bytes.
struct SealedValueError : std::runtime_error {
  enum class Kind {
    UnknownVersion,  // the first byte is not a format this build reads
    TooShort,        // fewer bytes than version, nonce and tag
    NotAuthentic,    // the tag does not verify: another key, other associated data, or an altered byte
  };
  SealedValueError(Kind errorKind, const std::string& message) : std::runtime_error(message), kind(errorKind) {}
  Kind kind;
};

class KeyEncryptionKey {
 public:
  inline static constexpr std::size_t kMinimumMaterialSize = 32;
  inline static constexpr unsigned char kVersion = 0x01;
  inline static constexpr std::size_t kNonceSize = 12;
  inline static constexpr std::size_t kTagSize = 16;
  // A sealed value's size beyond its plaintext's.
  inline static constexpr std::size_t kOverhead = 1 + kNonceSize + kTagSize;

  // Reads `file` whole (binary; a trailing newline is part of the key
  // material) and derives the key from it. Throws KeyEncryptionKeyError when
  // the file cannot be read, holds fewer than 32 bytes, or its mode gives
  // group or others any access.
  static KeyEncryptionKey load(const std::filesystem::path& file);

  // The key derived from `material` as if it were a file's content (at least
  // 32 bytes, else KeyEncryptionKeyError). For tests and tools.
  static KeyEncryptionKey fromBytes(std::string_view material);

  // Each copy holds the derived key and wipes it (OPENSSL_cleanse) when destroyed.
  KeyEncryptionKey(const KeyEncryptionKey&) = default;
  KeyEncryptionKey& operator=(const KeyEncryptionKey&) = default;
  ~KeyEncryptionKey();

  // `plaintext` sealed under this key, bound to `associatedData`; a new random
  // nonce each call. Thread-safe.
  std::string seal(std::string_view plaintext, std::string_view associatedData) const;

  // The plaintext of a value sealed by seal() under this key with the same
  // associated data. Throws SealedValueError otherwise; `what` names the value
  // in the message ("cannot decrypt <what>: ..."). Thread-safe.
  std::string open(std::string_view sealed, std::string_view associatedData,
                   std::string_view what = "a sealed value") const;

  // The key check: a caller stores sealCheck() once beside the sealed values.
  // matchesCheck() is false when that check was sealed under another key (the
  // wrong key file), so a failure to open a row afterwards means the row is
  // damaged, not the key. A check value that is too short or of an unknown
  // version throws SealedValueError: that is a damaged check, not a wrong key.
  std::string sealCheck() const;
  bool matchesCheck(std::string_view sealedCheck) const;

 private:
  explicit KeyEncryptionKey(std::string_view material);

  std::array<unsigned char, 32> key_{};
};

}  // namespace codepayload::auth
