// What a new password must be (OWASP Password Storage and Authentication
// cheat sheets, NIST SP 800-63B 5.1.1): 12 to 128 characters of UTF-8, any
// characters but control characters, no composition rules (docs/decisions.md
// D-D2). Checked when a password is set, never at sign-in.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace codepayload::accounts {

inline constexpr std::size_t kMinPasswordCharacters = 12;
inline constexpr std::size_t kMaxPasswordCharacters = 128;

struct PasswordProblem {
  enum class Kind { NotUtf8, ControlCharacter, TooShort, TooLong };
  Kind kind;
  // One sentence for the person choosing the password (never the password).
  std::string message;

  bool operator==(const PasswordProblem&) const = default;
};

// nullopt when `password` may be used; otherwise the first problem found, in
// the order of Kind.
std::optional<PasswordProblem> passwordProblem(std::string_view password);

}  // namespace codepayload::accounts
