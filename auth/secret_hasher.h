// Client secrets are stored only as HMAC-SHA-256(pepper, secret). The pepper is
// a 32-byte random file in the data directory (mode 0600), created on first use
// and never stored in the database.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include "auth/openssl_handles.h"

namespace codepayload::auth {

inline constexpr std::size_t kSecretDigestSize = 32;
using SecretDigest = std::array<unsigned char, kSecretDigestSize>;

// A pepper file that cannot be created, read, or has the wrong size or mode.
struct PepperError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class SecretHasher {
 public:
  inline static constexpr std::size_t kPepperSize = 32;

  // Reads `pepperFile`; when it does not exist, creates it atomically (32 bytes
  // from RAND_bytes, mode 0600; when two processes race, both end up with the
  // file that was linked first). Throws PepperError when the file exists with
  // another size, is readable by group/others, or cannot be read or written.
  static SecretHasher loadOrCreate(const std::filesystem::path& pepperFile);

  // A hasher over a given pepper (exactly kPepperSize bytes): a pepper kept
  // elsewhere than a file (app/postgresql_registry.h), and tests.
  explicit SecretHasher(std::string_view pepper);

  // HMAC-SHA-256(pepper, secret). Costs the same for every secret of a given
  // length. Thread-safe.
  SecretDigest digest(std::string_view secret) const;

  // Constant-time equality (CRYPTO_memcmp) of two digests.
  static bool equal(const SecretDigest& left, const SecretDigest& right);

 private:
  // SHA-256 after the pepper's inner and outer pads (RFC 2104), set up once and
  // copied for each digest: OpenSSL's one-shot HMAC() looks the algorithm up
  // and keys a new context every call, several times the work of a copy
  // (docs/performance.md section 12). The pepper itself is not kept.
  openssl::DigestContext innerPadded_;
  openssl::DigestContext outerPadded_;
};

}  // namespace codepayload::auth
