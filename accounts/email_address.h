// Email addresses as sign-in names: what is accepted, and the one spelling
// accounts are looked up and kept unique by (docs/decisions.md D-D7).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace codepayload::accounts {

inline constexpr std::size_t kMaxEmailBytes = 254;

// Why `email` cannot name an account, or nullopt: valid UTF-8, at most 254
// bytes, no space, control character or bidirectional control
// (common/bidi_controls.h), exactly one '@' with text on both sides and a dot
// in the domain but not at its ends.
std::optional<std::string> emailProblem(std::string_view email);

// The lookup key: ASCII letters in lower case, every other byte as given.
std::string emailKey(std::string_view email);

}  // namespace codepayload::accounts
