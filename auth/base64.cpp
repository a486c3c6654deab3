#include "auth/base64.h"

#include <array>
#include <cstdint>

namespace codepayload::auth {

namespace {

constexpr char kStandardAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kUrlAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::uint8_t kInvalid = 0xFF;

using DecodeTable = std::array<std::uint8_t, 256>;

constexpr DecodeTable makeDecodeTable(const char* alphabet) {
  DecodeTable table{};
  for (auto& entry : table) entry = kInvalid;
  for (std::uint8_t index = 0; index < 64; ++index) {
    table[static_cast<unsigned char>(alphabet[index])] = index;
  }
  return table;
}

constexpr DecodeTable kStandardTable = makeDecodeTable(kStandardAlphabet);
constexpr DecodeTable kUrlTable = makeDecodeTable(kUrlAlphabet);

// Decodes `text` (no padding characters in it) with `table`. The trailing
// partial group must be 2 or 3 characters whose unused low bits are zero, so
// each byte string has exactly one accepted spelling.
bool decodeUnpadded(std::string_view text, const DecodeTable& table, std::string& out) {
  out.clear();
  if (text.size() % 4 == 1) return false;
  out.reserve(text.size() / 4 * 3 + 2);
  std::uint32_t accumulator = 0;
  int bitCount = 0;
  for (const char character : text) {
    const std::uint8_t value = table[static_cast<unsigned char>(character)];
    if (value == kInvalid) return false;
    accumulator = (accumulator << 6) | value;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      out.push_back(static_cast<char>((accumulator >> bitCount) & 0xFFu));
    }
  }
  // Leftover bits (2 or 4) must be zero: otherwise another spelling decodes the same.
  const std::uint32_t leftoverMask = (1u << bitCount) - 1u;
  return (accumulator & leftoverMask) == 0;
}

std::string encode(std::string_view bytes, const char* alphabet, bool pad) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t index = 0;
  for (; index + 3 <= bytes.size(); index += 3) {
    const std::uint32_t group = (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[index])) << 16) |
                                (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[index + 1])) << 8) |
                                static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[index + 2]));
    out.push_back(alphabet[(group >> 18) & 0x3F]);
    out.push_back(alphabet[(group >> 12) & 0x3F]);
    out.push_back(alphabet[(group >> 6) & 0x3F]);
    out.push_back(alphabet[group & 0x3F]);
  }
  const std::size_t rest = bytes.size() - index;
  if (rest == 1) {
    const std::uint32_t group = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[index])) << 16;
    out.push_back(alphabet[(group >> 18) & 0x3F]);
    out.push_back(alphabet[(group >> 12) & 0x3F]);
    if (pad) out.append("==");
  } else if (rest == 2) {
    const std::uint32_t group = (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[index])) << 16) |
                                (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[index + 1])) << 8);
    out.push_back(alphabet[(group >> 18) & 0x3F]);
    out.push_back(alphabet[(group >> 12) & 0x3F]);
    out.push_back(alphabet[(group >> 6) & 0x3F]);
    if (pad) out.push_back('=');
  }
  return out;
}

}  // namespace

bool decodeBase64Strict(std::string_view text, std::string& out) {
  out.clear();
  if (text.empty() || text.size() % 4 != 0) return false;
  std::size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
  // A third '=' (or one anywhere else) is not in the alphabet and fails below.
  return decodeUnpadded(text.substr(0, text.size() - padding), kStandardTable, out);
}

bool decodeBase64UrlStrict(std::string_view text, std::string& out) {
  out.clear();
  if (text.empty()) return false;
  return decodeUnpadded(text, kUrlTable, out);
}

std::string encodeBase64Url(std::span<const unsigned char> bytes) {
  return encode(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), kUrlAlphabet, false);
}

std::string encodeBase64Url(std::string_view bytes) { return encode(bytes, kUrlAlphabet, false); }

std::string encodeBase64(std::string_view bytes) { return encode(bytes, kStandardAlphabet, true); }

}  // namespace codepayload::auth
