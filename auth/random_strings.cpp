#include "auth/random_strings.h"

#include <openssl/rand.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "auth/base64.h"

namespace codepayload::auth {

namespace {

void fillRandom(unsigned char* buffer, std::size_t size) {
  if (size == 0) return;
  if (RAND_bytes(buffer, static_cast<int>(size)) != 1) {
    throw std::runtime_error("the system random number generator failed (RAND_bytes)");
  }
}

}  // namespace

std::string randomBase64Url(std::size_t byteCount) {
  std::vector<unsigned char> bytes(byteCount);
  fillRandom(bytes.data(), bytes.size());
  std::string text = encodeBase64Url(std::span<const unsigned char>(bytes));
  OPENSSL_cleanse(bytes.data(), bytes.size());
  return text;
}

std::string randomBase62(std::size_t length) {
  static constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::string text;
  text.reserve(length);
  std::array<unsigned char, 64> pool{};
  while (text.size() < length) {
    fillRandom(pool.data(), pool.size());
    for (const unsigned char byte : pool) {
      // 248 = 4 * 62: bytes at or above it would bias the first characters.
      if (byte >= 248) continue;
      text.push_back(kAlphabet[byte % 62]);
      if (text.size() == length) break;
    }
  }
  return text;
}

}  // namespace codepayload::auth
