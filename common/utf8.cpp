#include "common/utf8.h"

namespace codepayload::common {

bool decodeUtf8(std::string_view text, std::size_t& index, char32_t& codePoint) {
  const auto lead = static_cast<unsigned char>(text[index]);
  std::size_t length = 0;
  char32_t value = 0;
  char32_t smallest = 0;  // below this the sequence is an overlong form
  if (lead < 0x80) {
    codePoint = lead;
    ++index;
    return true;
  } else if (lead >= 0xC2 && lead <= 0xDF) {  // 0xC0 and 0xC1 could only start overlong forms
    length = 2;
    value = lead & 0x1Fu;
    smallest = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    value = lead & 0x0Fu;
    smallest = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    value = lead & 0x07u;
    smallest = 0x10000;
  } else {
    return false;  // a continuation byte, or 0xF5..0xFF
  }
  if (text.size() - index < length) return false;
  for (std::size_t offset = 1; offset < length; ++offset) {
    const auto next = static_cast<unsigned char>(text[index + offset]);
    if ((next & 0xC0u) != 0x80u) return false;
    value = (value << 6) | (next & 0x3Fu);
  }
  if (value < smallest || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return false;
  codePoint = value;
  index += length;
  return true;
}

bool isValidUtf8(std::string_view text) {
  std::size_t index = 0;
  char32_t codePoint = 0;
  while (index < text.size()) {
    if (static_cast<unsigned char>(text[index]) < 0x80) {
      ++index;  // the common case, without the call
    } else if (!decodeUtf8(text, index, codePoint)) {
      return false;
    }
  }
  return true;
}

}  // namespace codepayload::common
