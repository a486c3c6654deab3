// ASCII-only character helpers for protocol text (HTTP tokens, media types,
// schemes, URI prefixes, configuration lines). They never look at the locale
// and treat every byte above 0x7F as an ordinary, caseless character.
#pragma once

#include <cstddef>
#include <string_view>

namespace codepayload::common {

// 'A'..'Z' become 'a'..'z'; every other byte is returned as it is.
constexpr char toAsciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Equality with 'A'..'Z' matching 'a'..'z' (HTTP field names, schemes, media
// types, charset names).
constexpr bool equalsIgnoringAsciiCase(std::string_view left, std::string_view right) {
  if (left.size() != right.size()) return false;
  for (std::size_t index = 0; index < left.size(); ++index) {
    if (toAsciiLower(left[index]) != toAsciiLower(right[index])) return false;
  }
  return true;
}

// Whether `text` begins with `prefix`, ASCII letters compared without case.
constexpr bool startsWithIgnoringAsciiCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && equalsIgnoringAsciiCase(text.substr(0, prefix.size()), prefix);
}

// SP or HTAB (HTTP's optional whitespace, the blanks of our line formats).
constexpr bool isSpaceOrTab(char c) { return c == ' ' || c == '\t'; }

// `text` without the spaces and tabs at both ends (CR, LF and other bytes are
// kept).
constexpr std::string_view trimSpaceAndTab(std::string_view text) {
  while (!text.empty() && isSpaceOrTab(text.front())) text.remove_prefix(1);
  while (!text.empty() && isSpaceOrTab(text.back())) text.remove_suffix(1);
  return text;
}

// A character of base64url's alphabet (RFC 4648 section 5): 'A'..'Z', 'a'..'z', '0'..'9', '-', '_'.
constexpr bool isBase64UrlCharacter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// The value of a hexadecimal digit ('0'..'9', 'a'..'f', 'A'..'F'), or -1.
constexpr int hexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace codepayload::common
