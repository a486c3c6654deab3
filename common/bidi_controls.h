// Unicode's bidirectional controls (UAX #9): U+061C ARABIC LETTER MARK,
// U+200E/U+200F (LRM, RLM), U+202A..U+202E (LRE, RLE, PDF, LRO, RLO) and
// U+2066..U+2069 (LRI, RLI, FSI, PDI). Invisible, they reorder the text
// around them when it is shown, so a name holding one can display as
// another name (CVE-2021-42574, "Trojan Source"). Names people give in the
// dashboard and the admin CLI refuse them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace codepayload::common {

constexpr bool isBidiControl(char32_t codePoint) {
  return codePoint == 0x061C || codePoint == 0x200E || codePoint == 0x200F ||
         (codePoint >= 0x202A && codePoint <= 0x202E) || (codePoint >= 0x2066 && codePoint <= 0x2069);
}

// The first bidirectional control of `text`: its code point and the byte
// offset where it starts. Stops at the first ill-formed UTF-8 sequence
// (validity is the caller's check): nullopt when none comes before it.
struct BidiControlAt {
  char32_t codePoint = 0;
  std::size_t offset = 0;

  bool operator==(const BidiControlAt&) const = default;
};
std::optional<BidiControlAt> findBidiControl(std::string_view text);

// `what` and the sentence naming `found` (its offset counts bytes from 0):
// "a client name must not contain a bidirectional control character (U+202E
// at byte offset 4)".
std::string bidiControlProblem(std::string_view what, const BidiControlAt& found);

}  // namespace codepayload::common
