// The low-S rule for ES256 signatures at its boundaries: S = n/2 is low,
// n/2 + 1 is high and becomes n/2; values that are no scalar are left alone.
#include "auth/ecdsa_low_s.h"

#include <gtest/gtest.h>

#include <array>
#include <string>

namespace codepayload::auth {
namespace {

using Signature = std::array<unsigned char, kEs256SignatureSize>;

// R = 01 02 ... 20 (any R: the rule looks at S only), S from 64 hex digits.
Signature withS(std::string_view hex) {
  Signature signature{};
  for (std::size_t index = 0; index < 32; ++index) signature[index] = static_cast<unsigned char>(index + 1);
  for (std::size_t index = 0; index < 32; ++index) {
    signature[32 + index] = static_cast<unsigned char>(std::stoul(std::string(hex.substr(2 * index, 2)), nullptr, 16));
  }
  return signature;
}

constexpr std::string_view kOrder = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
constexpr std::string_view kOrderMinusOne = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550";
constexpr std::string_view kHalfOrder = "7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a8";
constexpr std::string_view kHalfOrderPlusOne = "7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a9";
constexpr std::string_view kOne = "0000000000000000000000000000000000000000000000000000000000000001";
constexpr std::string_view kZero = "0000000000000000000000000000000000000000000000000000000000000000";
constexpr std::string_view kAllOnes = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff";

TEST(EcdsaLowS, HalfTheOrderIsTheLargestLowS) {
  EXPECT_TRUE(hasLowS(withS(kZero)));
  EXPECT_TRUE(hasLowS(withS(kOne)));
  EXPECT_TRUE(hasLowS(withS(kHalfOrder)));
  EXPECT_FALSE(hasLowS(withS(kHalfOrderPlusOne)));
  EXPECT_FALSE(hasLowS(withS(kOrderMinusOne)));
  EXPECT_FALSE(hasLowS(withS(kOrder)));
  EXPECT_FALSE(hasLowS(withS(kAllOnes)));
}

TEST(EcdsaLowS, MakeLowSReplacesAHighSByTheOrderMinusS) {
  Signature signature = withS(kHalfOrderPlusOne);
  EXPECT_TRUE(makeLowS(signature));
  EXPECT_EQ(signature, withS(kHalfOrder));  // n = 2 * (n/2) + 1, so n - (n/2 + 1) = n/2
  signature = withS(kOrderMinusOne);
  EXPECT_TRUE(makeLowS(signature));
  EXPECT_EQ(signature, withS(kOne));
  // Only the upper half differs: n - (n - 2^128) = 2^128.
  signature = withS("ffffffff00000000fffffffffffffffebce6faada7179e84f3b9cac2fc632551");
  EXPECT_TRUE(makeLowS(signature));
  EXPECT_EQ(signature, withS("0000000000000000000000000000000100000000000000000000000000000000"));
}

TEST(EcdsaLowS, MakeLowSLeavesLowAndNonScalarValuesAlone) {
  for (const std::string_view s : {kZero, kOne, kHalfOrder, kOrder, kAllOnes}) {
    Signature signature = withS(s);
    EXPECT_FALSE(makeLowS(signature)) << s;
    EXPECT_EQ(signature, withS(s)) << s;
  }
}

}  // namespace
}  // namespace codepayload::auth
