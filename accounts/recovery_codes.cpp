#include "accounts/recovery_codes.h"

#include <openssl/rand.h>

#include <stdexcept>

#include "accounts/base32.h"
#include "accounts/sha256_hex.h"
#include "common/ascii.h"

namespace codepayload::accounts {

namespace {

constexpr std::size_t kCodeBytes = 10;       // 80 bits
constexpr std::size_t kCodeCharacters = 16;  // base32 of 10 bytes

}  // namespace

RecoveryCodes newRecoveryCodes(std::size_t count) {
  RecoveryCodes result;
  for (std::size_t index = 0; index < count; ++index) {
    std::string bytes(kCodeBytes, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(bytes.size())) != 1) {
      throw std::runtime_error("the random generator failed");
    }
    const std::string canonical = encodeBase32(bytes);
    std::string shown;
    for (std::size_t i = 0; i < canonical.size(); ++i) {
      if (i > 0 && i % 4 == 0) shown.push_back('-');
      shown.push_back(common::toAsciiLower(canonical[i]));
    }
    result.codes.push_back(std::move(shown));
    result.digests.push_back(sha256Hex(canonical));
  }
  return result;
}

std::optional<std::string> recoveryCodeDigest(std::string_view typed) {
  std::string canonical;
  for (const char c : typed) {
    if (c == '-' || c == ' ') continue;
    canonical.push_back(c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
    if (canonical.size() > kCodeCharacters) return std::nullopt;
  }
  if (canonical.size() != kCodeCharacters || !decodeBase32(canonical)) return std::nullopt;
  return sha256Hex(canonical);
}

}  // namespace codepayload::accounts
