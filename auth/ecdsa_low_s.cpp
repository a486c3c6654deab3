#include "auth/ecdsa_low_s.h"

#include <algorithm>
#include <array>

namespace codepayload::auth {

namespace {

constexpr std::size_t kScalarSize = 32;

// n, the order of the P-256 group (SEC 2 §2.4.2), big-endian.
constexpr std::array<unsigned char, kScalarSize> kOrder = {
    0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51};
// floor(n / 2), big-endian.
constexpr std::array<unsigned char, kScalarSize> kHalfOrder = {
    0x7F, 0xFF, 0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xDE, 0x73, 0x7D, 0x56, 0xD3, 0x8B, 0xCF, 0x42, 0x79, 0xDC, 0xE5, 0x61, 0x7E, 0x31, 0x92, 0xA8};

// Big-endian comparison of two 32-byte numbers (public values: no need to be
// constant-time).
bool isGreater(std::span<const unsigned char, kScalarSize> left, const std::array<unsigned char, kScalarSize>& right) {
  return std::lexicographical_compare(right.begin(), right.end(), left.begin(), left.end());
}

}  // namespace

bool hasLowS(std::span<const unsigned char, kEs256SignatureSize> signature) {
  return !isGreater(signature.subspan<kScalarSize, kScalarSize>(), kHalfOrder);
}

bool makeLowS(std::span<unsigned char, kEs256SignatureSize> signature) {
  const std::span<unsigned char, kScalarSize> s = signature.subspan<kScalarSize, kScalarSize>();
  const bool belowOrder = std::lexicographical_compare(s.begin(), s.end(), kOrder.begin(), kOrder.end());
  if (!isGreater(s, kHalfOrder) || !belowOrder) return false;
  // s = n - s, byte by byte from the least significant end.
  int borrow = 0;
  for (std::size_t index = kScalarSize; index-- > 0;) {
    const int difference = int{kOrder[index]} - int{s[index]} - borrow;
    borrow = difference < 0 ? 1 : 0;
    s[index] = static_cast<unsigned char>(difference + (borrow << 8));
  }
  return true;
}

}  // namespace codepayload::auth
