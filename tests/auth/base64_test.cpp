#include "auth/base64.h"

#include <gtest/gtest.h>

#include <string>

namespace codepayload::auth {
namespace {

TEST(Base64Strict, DecodesCanonicalPaddedText) {
  std::string out;
  ASSERT_TRUE(decodeBase64Strict("YWJjZA==", out));
  EXPECT_EQ(out, "abcd");
  ASSERT_TRUE(decodeBase64Strict("YWJjZGU=", out));
  EXPECT_EQ(out, "abcde");
  ASSERT_TRUE(decodeBase64Strict("YWJj", out));
  EXPECT_EQ(out, "abc");
  ASSERT_TRUE(decodeBase64Strict("+/+/", out));
  EXPECT_EQ(out, "\xfb\xff\xbf");
}

struct RejectedBase64 {
  const char* name;
  std::string_view text;
};

class Base64StrictRejects : public ::testing::TestWithParam<RejectedBase64> {};

TEST_P(Base64StrictRejects, Text) {
  std::string out;
  EXPECT_FALSE(decodeBase64Strict(GetParam().text, out)) << GetParam().name;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, Base64StrictRejects,
    ::testing::Values(RejectedBase64{"empty", ""}, RejectedBase64{"unpadded", "YWJjZA"},
                      RejectedBase64{"lengthNotMultipleOfFour", "YWJjZ"}, RejectedBase64{"garbage", "!!!!"},
                      RejectedBase64{"embeddedSpace", "YWJj ZA=="}, RejectedBase64{"embeddedNewline", "YWJj\nZA=="},
                      RejectedBase64{"dataAfterPadding", "YWJjZA==AAAA"}, RejectedBase64{"threePads", "YQ===AAA"},
                      RejectedBase64{"padInMiddle", "YW=jZA=="}, RejectedBase64{"urlAlphabetMinus", "-_-_"},
                      RejectedBase64{"nonCanonicalLastChar", "YWJjZB=="},
                      RejectedBase64{"nonCanonicalOnePad", "YWJjZGV="}, RejectedBase64{"onlyPadding", "===="},
                      RejectedBase64{"nulByte", std::string_view("YW\0j", 4)},
                      RejectedBase64{"trailingGarbage", "YWJjZA==$$$"}),
    [](const auto& row) { return std::string(row.param.name); });

TEST(Base64UrlStrict, DecodesUnpaddedUrlAlphabet) {
  std::string out;
  ASSERT_TRUE(decodeBase64UrlStrict("-_-_", out));
  EXPECT_EQ(out, "\xfb\xff\xbf");
  ASSERT_TRUE(decodeBase64UrlStrict("YWJjZA", out));
  EXPECT_EQ(out, "abcd");
  ASSERT_TRUE(decodeBase64UrlStrict("YWJjZGU", out));
  EXPECT_EQ(out, "abcde");
}

TEST(Base64UrlStrict, RejectsPaddingStandardAlphabetAndNonCanonicalText) {
  std::string out;
  EXPECT_FALSE(decodeBase64UrlStrict("YWJjZA==", out));
  EXPECT_FALSE(decodeBase64UrlStrict("YWJjZA=", out));
  EXPECT_FALSE(decodeBase64UrlStrict("+/+/", out));
  EXPECT_FALSE(decodeBase64UrlStrict("YWJjZB", out));  // unused bits set
  EXPECT_FALSE(decodeBase64UrlStrict("YWJjZ", out));   // 4n+1 characters
  EXPECT_FALSE(decodeBase64UrlStrict("YWJj ZA", out));
  EXPECT_FALSE(decodeBase64UrlStrict("", out));
}

TEST(Base64Encode, RoundTripsEveryLength) {
  std::string bytes;
  for (int length = 0; length < 40; ++length) {
    std::string out;
    if (length > 0) {
      ASSERT_TRUE(decodeBase64Strict(encodeBase64(bytes), out));
      EXPECT_EQ(out, bytes);
      ASSERT_TRUE(decodeBase64UrlStrict(encodeBase64Url(bytes), out));
      EXPECT_EQ(out, bytes);
    }
    bytes.push_back(static_cast<char>(length * 37 + 200));
  }
  EXPECT_EQ(encodeBase64("abcd"), "YWJjZA==");
  EXPECT_EQ(encodeBase64Url("\xfb\xff\xbf"), "-_-_");
  EXPECT_EQ(encodeBase64Url("ab"), "YWI");
}

}  // namespace
}  // namespace codepayload::auth
