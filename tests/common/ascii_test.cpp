#include "common/ascii.h"

#include <gtest/gtest.h>

#include <string>
#include <unordered_map>

#include "common/string_hash.h"

namespace codepayload::common {
namespace {

TEST(Ascii, ToAsciiLowerChangesOnlyTheAsciiCapitals) {
  EXPECT_EQ(toAsciiLower('A'), 'a');
  EXPECT_EQ(toAsciiLower('Z'), 'z');
  EXPECT_EQ(toAsciiLower('a'), 'a');
  EXPECT_EQ(toAsciiLower('@'), '@');  // just below 'A'
  EXPECT_EQ(toAsciiLower('['), '[');  // just above 'Z'
  EXPECT_EQ(toAsciiLower('1'), '1');
  EXPECT_EQ(toAsciiLower('\xC3'), '\xC3');  // a UTF-8 lead byte stays
  EXPECT_EQ(toAsciiLower('\xDC'), '\xDC');  // Latin-1 'Ü' is not an ASCII capital
}

TEST(Ascii, EqualsIgnoringAsciiCase) {
  EXPECT_TRUE(equalsIgnoringAsciiCase("Content-Length", "content-length"));
  EXPECT_TRUE(equalsIgnoringAsciiCase("BEARER", "bearer"));
  EXPECT_TRUE(equalsIgnoringAsciiCase("", ""));
  EXPECT_TRUE(equalsIgnoringAsciiCase("utf-8", "UTF-8"));
  EXPECT_FALSE(equalsIgnoringAsciiCase("Basic", "Basic "));
  EXPECT_FALSE(equalsIgnoringAsciiCase("Basic", "Basik"));
  EXPECT_FALSE(equalsIgnoringAsciiCase("a", ""));
  // Only ASCII letters fold: '@' and '`' are 0x20 apart but not letters.
  EXPECT_FALSE(equalsIgnoringAsciiCase("@", "`"));
  EXPECT_FALSE(equalsIgnoringAsciiCase("[", "{"));
  EXPECT_FALSE(equalsIgnoringAsciiCase("Gr\xC3\x9C\xC3\x9F", "gr\xC3\xBC\xC3\x9F"));  // Ü/ü are not ASCII
  EXPECT_TRUE(equalsIgnoringAsciiCase("Gr\xC3\xBC\xC3\x9F", "GR\xC3\xBC\xC3\x9F"));
  EXPECT_TRUE(equalsIgnoringAsciiCase(std::string_view("a\0B", 3), std::string_view("A\0b", 3)));
  EXPECT_FALSE(equalsIgnoringAsciiCase(std::string_view("a\0b", 3), std::string_view("a\0c", 3)));
}

TEST(Ascii, StartsWithIgnoringAsciiCase) {
  EXPECT_TRUE(startsWithIgnoringAsciiCase("HTTPS://id.example/01/1", "https://"));
  EXPECT_TRUE(startsWithIgnoringAsciiCase("https://", "https://"));
  EXPECT_TRUE(startsWithIgnoringAsciiCase("anything", ""));
  EXPECT_FALSE(startsWithIgnoringAsciiCase("http://", "https://"));
  EXPECT_FALSE(startsWithIgnoringAsciiCase("https:", "https://"));
  EXPECT_FALSE(startsWithIgnoringAsciiCase(" https://", "https://"));
}

TEST(Ascii, TrimSpaceAndTabRemovesOnlySpacesAndTabsAtBothEnds) {
  EXPECT_EQ(trimSpaceAndTab(" \t a b \t "), "a b");
  EXPECT_EQ(trimSpaceAndTab("a\t b"), "a\t b");
  EXPECT_EQ(trimSpaceAndTab("   "), "");
  EXPECT_EQ(trimSpaceAndTab(""), "");
  EXPECT_EQ(trimSpaceAndTab("\r\nx\r\n"), "\r\nx\r\n");
  EXPECT_EQ(trimSpaceAndTab("\vx\f"), "\vx\f");
  EXPECT_EQ(trimSpaceAndTab(" \xC2\xA0 "), "\xC2\xA0");  // a no-break space is text
  EXPECT_TRUE(isSpaceOrTab(' '));
  EXPECT_TRUE(isSpaceOrTab('\t'));
  EXPECT_FALSE(isSpaceOrTab('\n'));
  EXPECT_FALSE(isSpaceOrTab('\0'));
}

TEST(Ascii, IsBase64UrlCharacterTakesRfc4648sUrlAlphabetOnly) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (int c = 0; c < 256; ++c) {
    const char character = static_cast<char>(c);
    EXPECT_EQ(isBase64UrlCharacter(character), alphabet.find(character) != std::string::npos) << c;
  }
}

TEST(Ascii, HexDigitValue) {
  const std::string digits = "0123456789abcdefABCDEF";
  const int values[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 10, 11, 12, 13, 14, 15};
  for (std::size_t index = 0; index < digits.size(); ++index) {
    EXPECT_EQ(hexDigitValue(digits[index]), values[index]) << digits[index];
  }
  for (const char other : {'g', 'G', '/', ':', '@', '`', ' ', '\0', '\xFF', 'x'}) {
    EXPECT_EQ(hexDigitValue(other), -1) << static_cast<int>(other);
  }
}

TEST(StringHash, FindsStdStringKeysByStringView) {
  std::unordered_map<std::string, int, TransparentStringHash, std::equal_to<>> map{{"alpha", 1}, {"beta", 2}};
  const std::string_view key = std::string_view("alphabet").substr(0, 5);
  ASSERT_NE(map.find(key), map.end());
  EXPECT_EQ(map.find(key)->second, 1);
  EXPECT_EQ(map.find(std::string_view("gamma")), map.end());
  EXPECT_EQ(TransparentStringHash{}(std::string_view("beta")), std::hash<std::string_view>{}("beta"));
}

}  // namespace
}  // namespace codepayload::common
