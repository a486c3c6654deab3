#include "server/http/request_id.h"

#include <array>
#include <cstdint>
#include <random>

namespace codepayload::server {

namespace {

std::mt19937_64 seededGenerator() {
  std::random_device entropy;
  std::array<std::uint32_t, 8> seed{};
  for (auto& word : seed) word = entropy();
  std::seed_seq sequence(seed.begin(), seed.end());
  return std::mt19937_64(sequence);
}

}  // namespace

std::string generateRequestId() {
  thread_local std::mt19937_64 generator = seededGenerator();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  id.reserve(32);
  for (int half = 0; half < 2; ++half) {
    std::uint64_t bits = generator();
    for (int digit = 0; digit < 16; ++digit) {
      id.push_back(kHex[bits & 0xf]);
      bits >>= 4;
    }
  }
  return id;
}

bool acceptableRequestId(std::string_view id) {
  if (id.empty() || id.size() > kMaxRequestIdLength) return false;
  for (const char c : id) {
    const bool alphanumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alphanumeric && std::string_view("-_.:@+/=").find(c) == std::string_view::npos) return false;
  }
  return true;
}

}  // namespace codepayload::server
