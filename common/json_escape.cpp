#include "common/json_escape.h"

#include <array>
#include <cstdint>
#include <cstring>

#include "common/utc_time.h"

namespace codepayload::common {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// Bytes that cannot stand in a JSON string as they are.
constexpr std::array<bool, 256> makeEscapeTable() {
  std::array<bool, 256> table{};
  for (std::size_t c = 0; c < 0x20; ++c) table[c] = true;
  table[static_cast<unsigned char>('"')] = true;
  table[static_cast<unsigned char>('\\')] = true;
  return table;
}
constexpr std::array<bool, 256> kMustEscape = makeEscapeTable();

constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// Whether one of the 8 bytes of `word` is zero (the classic bit trick: a
// byte's high bit survives the subtraction only where the byte was 0).
constexpr bool hasZeroByte(std::uint64_t word) { return ((word - kOnes) & ~word & kHighBits) != 0; }

// Whether one of the 8 bytes at `bytes` must be escaped: below 0x20, '"' or
// '\\'. Most text has none, and is then passed over 8 bytes at a time.
bool eightNeedEscape(const char* bytes) {
  std::uint64_t word;
  std::memcpy(&word, bytes, sizeof word);
  const bool control = ((word - kOnes * 0x20) & ~word & kHighBits) != 0;
  return control || hasZeroByte(word ^ (kOnes * '"')) || hasZeroByte(word ^ (kOnes * '\\'));
}

}  // namespace

void appendJsonString(std::string& out, std::string_view text) {
  out += '"';
  std::size_t clean = 0;  // start of the run not yet copied
  std::size_t index = 0;
  for (; index + 8 <= text.size(); index += 8) {
    if (eightNeedEscape(text.data() + index)) break;
  }
  for (; index < text.size(); ++index) {
    const auto c = static_cast<unsigned char>(text[index]);
    if (!kMustEscape[c]) continue;
    out.append(text.data() + clean, index - clean);
    clean = index + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out += kHexDigits[c >> 4];
        out += kHexDigits[c & 0x0F];
    }
  }
  out.append(text.data() + clean, text.size() - clean);
  out += '"';
}

void appendJsonUtcTime(std::string& out, std::chrono::system_clock::time_point time) {
  out.push_back('"');
  appendUtcMillisText(out, time);
  out.push_back('"');
}

}  // namespace codepayload::common
