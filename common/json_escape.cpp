#include "common/json_escape.h"

#include <algorithm>
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

// Whether one of the 8 bytes of `word` must be escaped: below 0x20, '"' or
// '\\'.
bool needsEscape(std::uint64_t word) {
  const bool control = ((word - kOnes * 0x20) & ~word & kHighBits) != 0;
  return control || hasZeroByte(word ^ (kOnes * '"')) || hasZeroByte(word ^ (kOnes * '\\'));
}

// Whether one of the bytes at `bytes`, 1 to 8 of them, must be escaped.
// Short texts (keys, most values) are then one word's check; the bytes past
// `count` are filled with a letter, which needs no escape.
bool someNeedEscape(const char* bytes, std::size_t count) {
  std::uint64_t word = kOnes * 'a';
  std::memcpy(&word, bytes, count);
  return needsEscape(word);
}

// Where the first byte of `text` that must be escaped is, or text.size().
// Most text has none, and is passed over 8 bytes at a time.
std::size_t firstToEscape(std::string_view text) {
  std::size_t index = 0;
  for (; index < text.size(); index += 8) {
    if (someNeedEscape(text.data() + index, std::min<std::size_t>(8, text.size() - index))) break;
  }
  if (index >= text.size()) return text.size();
  while (!kMustEscape[static_cast<unsigned char>(text[index])]) ++index;
  return index;
}

}  // namespace

char* writeJsonString(char* out, std::string_view text) {
  *out++ = '"';
  std::size_t index = firstToEscape(text);
  out = std::copy(text.data(), text.data() + index, out);
  for (; index < text.size(); ++index) {
    const auto c = static_cast<unsigned char>(text[index]);
    if (!kMustEscape[c]) {
      *out++ = static_cast<char>(c);
      continue;
    }
    *out++ = '\\';
    switch (c) {
      case '"': *out++ = '"'; break;
      case '\\': *out++ = '\\'; break;
      case '\b': *out++ = 'b'; break;
      case '\f': *out++ = 'f'; break;
      case '\n': *out++ = 'n'; break;
      case '\r': *out++ = 'r'; break;
      case '\t': *out++ = 't'; break;
      default:
        out = std::copy_n("u00", 3, out);
        *out++ = kHexDigits[c >> 4];
        *out++ = kHexDigits[c & 0x0F];
    }
  }
  *out++ = '"';
  return out;
}

void appendJsonString(std::string& out, std::string_view text) {
  // Most text needs no escape: then it is appended as it is.
  if (firstToEscape(text) == text.size()) {
    out += '"';
    out += text;
    out += '"';
    return;
  }
  const std::size_t start = out.size();
  out.resize(start + jsonStringRoom(text.size()));
  char* const end = writeJsonString(out.data() + start, text);
  out.resize(static_cast<std::size_t>(end - out.data()));
}

void appendJsonUtcTime(std::string& out, std::chrono::system_clock::time_point time) {
  out.push_back('"');
  appendUtcMillisText(out, time);
  out.push_back('"');
}

}  // namespace codepayload::common
