#include "common/utf8.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace codepayload::common {
namespace {

TEST(Utf8, WellFormedText) {
  EXPECT_TRUE(isValidUtf8(""));
  EXPECT_TRUE(isValidUtf8("plain ASCII"));
  EXPECT_TRUE(isValidUtf8(std::string_view("\0\x7F", 2)));
  EXPECT_TRUE(isValidUtf8("\xC2\x80"));          // U+0080, the smallest two-byte form
  EXPECT_TRUE(isValidUtf8("\xDF\xBF"));          // U+07FF
  EXPECT_TRUE(isValidUtf8("\xE0\xA0\x80"));      // U+0800, the smallest three-byte form
  EXPECT_TRUE(isValidUtf8("\xED\x9F\xBF"));      // U+D7FF, just below the surrogates
  EXPECT_TRUE(isValidUtf8("\xEE\x80\x80"));      // U+E000, just above them
  EXPECT_TRUE(isValidUtf8("\xEF\xBF\xBF"));      // U+FFFF
  EXPECT_TRUE(isValidUtf8("\xF0\x90\x80\x80"));  // U+10000, the smallest four-byte form
  EXPECT_TRUE(isValidUtf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF, the largest code point
  EXPECT_TRUE(isValidUtf8("Gr\xC3\xBC\xC3\x9F \xE2\x82\xAC \xF0\x9F\x98\x80"));
}

TEST(Utf8, IllFormedText) {
  const std::vector<std::pair<std::string, const char*>> cases = {
      {"\x80", "a lone continuation byte"},
      {"\xBF", "a lone continuation byte"},
      {"a\x80z", "a continuation byte after ASCII"},
      {"\xC0\x80", "overlong U+0000 (0xC0)"},
      {"\xC1\xBF", "overlong U+007F (0xC1)"},
      {"\xE0\x9F\xBF", "overlong U+07FF in three bytes"},
      {"\xE0\x80\x80", "overlong U+0000 in three bytes"},
      {"\xF0\x8F\xBF\xBF", "overlong U+FFFF in four bytes"},
      {"\xED\xA0\x80", "surrogate U+D800"},
      {"\xED\xBF\xBF", "surrogate U+DFFF"},
      {"\xED\xA0\xBD\xED\xB8\x80", "a surrogate pair (CESU-8)"},
      {"\xF4\x90\x80\x80", "U+110000, above the last code point"},
      {"\xF5\x80\x80\x80", "lead byte 0xF5"},
      {"\xF8\x88\x80\x80\x80", "a five-byte form"},
      {"\xFE", "0xFE"},
      {"\xFF", "0xFF"},
      {"\xC3", "a two-byte form cut after its lead"},
      {"\xE2\x82", "a three-byte form cut short"},
      {"\xF0\x9F\x98", "a four-byte form cut short"},
      {"\xC3(", "a lead followed by ASCII"},
      {"\xE2\x28\xA1", "a bad second byte"},
      {"\xE2\x82\x28", "a bad third byte"},
      {"\xF0\x9F\x98\xC0", "a lead byte where a continuation belongs"},
  };
  for (const auto& [text, why] : cases) {
    EXPECT_FALSE(isValidUtf8(text)) << why;
    EXPECT_FALSE(isValidUtf8("ok " + text)) << why << " after valid text";
  }
}

TEST(Utf8, DecodeReturnsTheCodePointAndMovesPastIt) {
  const std::string text = "A\xC3\xBC\xE2\x82\xAC\xF0\x9F\x98\x80";
  std::size_t index = 0;
  char32_t codePoint = 0;
  const std::vector<std::pair<char32_t, std::size_t>> expected = {{U'A', 1}, {0xFC, 3}, {0x20AC, 6}, {0x1F600, 10}};
  for (const auto& [value, next] : expected) {
    ASSERT_TRUE(decodeUtf8(text, index, codePoint));
    EXPECT_EQ(codePoint, value);
    EXPECT_EQ(index, next);
  }
}

TEST(Utf8, DecodeLeavesIndexAndCodePointOnFailure) {
  const std::string text = "a\xED\xA0\x80";
  std::size_t index = 1;
  char32_t codePoint = U'x';
  EXPECT_FALSE(decodeUtf8(text, index, codePoint));
  EXPECT_EQ(index, 1u);
  EXPECT_EQ(codePoint, U'x');
  const std::string cut = "\xE2\x82";
  index = 0;
  EXPECT_FALSE(decodeUtf8(cut, index, codePoint));
  EXPECT_EQ(index, 0u);
}

}  // namespace
}  // namespace codepayload::common
