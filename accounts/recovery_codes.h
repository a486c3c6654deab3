// Single-use recovery codes for a lost authenticator: ten codes of 80 random
// bits, shown once as "xxxx-xxxx-xxxx-xxxx" (base32, lower case) and stored
// only as SHA-256 digests (docs/decisions.md D-D4). A code typed back may
// differ in case and in dashes and spaces.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload::accounts {

inline constexpr std::size_t kRecoveryCodeCount = 10;

struct RecoveryCodes {
  std::vector<std::string> codes;    // to show once
  std::vector<std::string> digests;  // to store, same order
};

// `count` new codes and their digests.
RecoveryCodes newRecoveryCodes(std::size_t count = kRecoveryCodeCount);

// The digest (64 lower-case hex digits) of a typed code, or nullopt when the
// text, without dashes and spaces, is not 16 base32 characters.
std::optional<std::string> recoveryCodeDigest(std::string_view typed);

}  // namespace codepayload::accounts
