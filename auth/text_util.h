// Small text helpers shared inside codepayload_auth (header parsing and the
// string-keyed tables). Internal: not part of the library's interface.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace codepayload::auth {

// ASCII case-insensitive equality (HTTP schemes and media types).
inline bool equalsIgnoringAsciiCase(std::string_view left, std::string_view right) {
  if (left.size() != right.size()) return false;
  for (std::size_t index = 0; index < left.size(); ++index) {
    char a = left[index];
    char b = right[index];
    if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
    if (b >= 'A' && b <= 'Z') b = static_cast<char>(b - 'A' + 'a');
    if (a != b) return false;
  }
  return true;
}

// Strips HTTP optional whitespace (SP, HTAB) from both ends.
inline std::string_view trimOptionalWhitespace(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Lets unordered maps keyed by std::string be searched with a string_view
// (no temporary string on lookups).
struct TransparentStringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
};

}  // namespace codepayload::auth
