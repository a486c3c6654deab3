#include "accounts/email_address.h"

#include "common/ascii.h"
#include "common/bidi_controls.h"
#include "common/utf8.h"

namespace codepayload::accounts {

std::optional<std::string> emailProblem(std::string_view email) {
  if (email.empty()) return "the email address is empty";
  if (email.size() > kMaxEmailBytes) {
    return "the email address is longer than " + std::to_string(kMaxEmailBytes) + " bytes";
  }
  std::size_t index = 0;
  while (index < email.size()) {
    char32_t codePoint = 0;
    if (!common::decodeUtf8(email, index, codePoint)) return "the email address is not valid UTF-8 text";
    if (codePoint <= 0x20 || (codePoint >= 0x7F && codePoint <= 0x9F)) {
      return "the email address contains a space or a control character";
    }
  }
  if (const std::optional<common::BidiControlAt> found = common::findBidiControl(email)) {
    return common::bidiControlProblem("the email address", *found);
  }
  const std::size_t at = email.find('@');
  if (at == std::string_view::npos || email.find('@', at + 1) != std::string_view::npos) {
    return "the email address must contain exactly one '@'";
  }
  const std::string_view local = email.substr(0, at);
  const std::string_view domain = email.substr(at + 1);
  if (local.empty() || domain.empty()) return "the email address needs text before and after the '@'";
  const std::size_t dot = domain.find('.');
  if (dot == std::string_view::npos || domain.front() == '.' || domain.back() == '.') {
    return "the email address's domain must contain a dot, not at its start or end";
  }
  return std::nullopt;
}

std::string emailKey(std::string_view email) {
  std::string key(email);
  for (char& c : key) c = common::toAsciiLower(c);
  return key;
}

}  // namespace codepayload::accounts
