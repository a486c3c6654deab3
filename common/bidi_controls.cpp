#include "common/bidi_controls.h"

#include "common/utf8.h"

namespace codepayload::common {

std::optional<BidiControlAt> findBidiControl(std::string_view text) {
  std::size_t index = 0;
  while (index < text.size()) {
    const std::size_t start = index;
    char32_t codePoint = 0;
    if (!decodeUtf8(text, index, codePoint)) return std::nullopt;
    if (isBidiControl(codePoint)) return BidiControlAt{codePoint, start};
  }
  return std::nullopt;
}

std::string bidiControlProblem(std::string_view what, const BidiControlAt& found) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string codePoint = "U+";
  for (int shift = 12; shift >= 0; shift -= 4) codePoint.push_back(kHex[(found.codePoint >> shift) & 0xF]);
  return std::string(what) + " must not contain a bidirectional control character (" + codePoint + " at byte offset " +
         std::to_string(found.offset) + ")";
}

}  // namespace codepayload::common
