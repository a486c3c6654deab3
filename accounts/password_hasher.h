// Password hashing with Argon2id (libargon2, RFC 9106) for people's accounts
// (OWASP Password Storage: at least 19 MiB of memory and 2 passes, one lane).
// Hashes are PHC strings: $argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>
// (standard base64 without padding), 16-byte random salt, 32-byte hash.
// Verification recomputes the hash with the stored parameters and compares
// in constant time. Thread-safe (no state but the parameters).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace codepayload::accounts {

struct Argon2Parameters {
  std::uint32_t memoryKib = 19 * 1024;
  std::uint32_t passes = 2;
  std::uint32_t lanes = 1;

  bool operator==(const Argon2Parameters&) const = default;
};

// The floor every hasher must meet (OWASP: m = 19 MiB, t = 2, p = 1).
inline constexpr Argon2Parameters kMinimumArgon2Parameters{};

// A stored hash that is not one this hasher can read (not argon2id version
// 19, malformed, or parameters beyond the limits below), or a library failure.
class PasswordHashError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class PasswordHasher {
 public:
  static constexpr std::size_t kSaltBytes = 16;
  static constexpr std::size_t kHashBytes = 32;
  // What a stored hash may ask of verify(): a bound on the work one sign-in
  // can cause, whatever the database holds.
  static constexpr std::uint32_t kMaxMemoryKib = 1024 * 1024;
  static constexpr std::uint32_t kMaxPasses = 16;
  static constexpr std::uint32_t kMaxLanes = 16;

  // Throws PasswordHashError when `parameters` are below the minimum or
  // beyond the limits.
  explicit PasswordHasher(Argon2Parameters parameters = {});

  const Argon2Parameters& parameters() const { return parameters_; }

  // A new PHC string for `password` with a fresh random salt.
  std::string hash(std::string_view password) const;
  // The PHC string for `password` with `salt` (8 to 64 bytes); for tests.
  std::string hashWithSalt(std::string_view password, std::span<const unsigned char> salt) const;

  // Whether `password` matches `encoded`. Throws PasswordHashError when
  // `encoded` cannot be read.
  bool verify(std::string_view password, std::string_view encoded) const;

  // The work of one verify() against a hash made with this hasher's
  // parameters, for a sign-in whose email matches no account, so that both
  // answers take the same time. Returns nothing.
  void verifyNothing(std::string_view password) const;

  // Whether `encoded` was made with other parameters than this hasher's, or
  // with weaker ones (to be replaced by hash() after a successful sign-in).
  // A hash that cannot be read needs a rehash too.
  bool needsRehash(std::string_view encoded) const;

 private:
  Argon2Parameters parameters_;
  std::string dummyHash_;
};

}  // namespace codepayload::accounts
