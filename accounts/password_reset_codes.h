// One-time codes of an owner's password reset (AccountStore::startPasswordReset):
// 256 random bits as 43 base64url characters, handed to the user in the
// fragment of a link (so they reach no server log) and stored only as their
// SHA-256 digest; valid for 24 hours and once (docs/decisions.md D-Q38).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace codepayload::accounts {

inline constexpr std::size_t kResetCodeBytes = 32;
inline constexpr std::size_t kResetCodeLength = 43;  // base64url without padding
inline constexpr std::int64_t kResetCodeSeconds = 24 * 60 * 60;

struct ResetCode {
  std::string code;    // to show once
  std::string digest;  // to store
};

ResetCode newResetCode();

// The digest (64 lower-case hex digits) of a code typed back, or nullopt when
// it is not 43 base64url characters.
std::optional<std::string> resetCodeDigest(std::string_view code);

}  // namespace codepayload::accounts
