#include "accounts/password_policy.h"

#include "common/utf8.h"

namespace codepayload::accounts {

std::optional<PasswordProblem> passwordProblem(std::string_view password) {
  std::size_t characters = 0;
  bool control = false;
  std::size_t index = 0;
  while (index < password.size()) {
    char32_t codePoint = 0;
    if (!common::decodeUtf8(password, index, codePoint)) {
      return PasswordProblem{PasswordProblem::Kind::NotUtf8, "the password is not valid UTF-8 text"};
    }
    if (codePoint < 0x20 || (codePoint >= 0x7F && codePoint <= 0x9F)) control = true;
    ++characters;
  }
  if (control) {
    return PasswordProblem{PasswordProblem::Kind::ControlCharacter,
                           "the password contains a control character (such as a tab or a line break)"};
  }
  if (characters < kMinPasswordCharacters) {
    return PasswordProblem{PasswordProblem::Kind::TooShort, "the password has " + std::to_string(characters) +
                                                                " characters; it needs at least " +
                                                                std::to_string(kMinPasswordCharacters)};
  }
  if (characters > kMaxPasswordCharacters) {
    return PasswordProblem{PasswordProblem::Kind::TooLong, "the password has " + std::to_string(characters) +
                                                               " characters; it may have at most " +
                                                               std::to_string(kMaxPasswordCharacters)};
  }
  return std::nullopt;
}

}  // namespace codepayload::accounts
