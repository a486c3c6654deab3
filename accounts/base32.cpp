#include "accounts/base32.h"

#include <cstdint>

namespace codepayload::accounts {

namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

int valueOf(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= '2' && c <= '7') return c - '2' + 26;
  return -1;
}

}  // namespace

std::string encodeBase32(std::string_view bytes) {
  std::string text;
  text.reserve((bytes.size() * 8 + 4) / 5);
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const char byte : bytes) {
    buffer = (buffer << 8) | static_cast<unsigned char>(byte);
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      text.push_back(kAlphabet[(buffer >> bits) & 0x1F]);
    }
  }
  if (bits > 0) text.push_back(kAlphabet[(buffer << (5 - bits)) & 0x1F]);
  return text;
}

std::optional<std::string> decodeBase32(std::string_view text) {
  // 8 characters hold 5 bytes; a tail of 1, 3 or 6 characters is no whole byte count.
  const std::size_t tail = text.size() % 8;
  if (tail == 1 || tail == 3 || tail == 6) return std::nullopt;
  std::string bytes;
  bytes.reserve(text.size() * 5 / 8);
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const char c : text) {
    const int value = valueOf(c);
    if (value < 0) return std::nullopt;
    buffer = (buffer << 5) | static_cast<std::uint32_t>(value);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  if ((buffer & ((1U << bits) - 1)) != 0) return std::nullopt;
  return bytes;
}

}  // namespace codepayload::accounts
