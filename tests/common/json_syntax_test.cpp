// common/json_syntax.h: the first place a text stops being JSON, and that
// place as a line and a column.
#include "common/json_syntax.h"

#include <gtest/gtest.h>

#include <string>

namespace codepayload::common {
namespace {

// "<offset> <expected>", or "valid".
std::string faultOf(std::string_view text) {
  const auto fault = findJsonSyntaxFault(text);
  return fault ? std::to_string(fault->offset) + " " + std::string(fault->expected) : "valid";
}

TEST(JsonSyntax, JsonTextsOfEveryKindAreValid) {
  for (const std::string_view text :
       {R"({})", R"([])", R"( {"a" : [1, -2.5e+3, 0, 0.1E-2, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9"]} )",
        "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"", "\r\n\t 7 \n", R"([[[]],{"":{}}])"}) {
    EXPECT_EQ(faultOf(text), "valid") << text;
  }
}

TEST(JsonSyntax, EachFaultIsFoundAtItsFirstByte) {
  const struct {
    std::string_view text;
    std::string expected;
  } cases[] = {
      {"", "0 a value"},
      {"   ", "3 a value"},
      {"{", "1 a field name in quotes"},
      {"{'a':1}", "1 a field name in quotes"},
      {R"({"a" 1})", "5 ':'"},
      {R"({"a":1 "b":2})", "7 ',' or '}'"},
      {R"({"a":1,})", "7 a field name in quotes"},
      {"[1,]", "3 a value"},
      {"[1 2]", "3 ',' or ']'"},
      {R"({"codes":[)", "10 a value"},
      {R"({"a":1} x)", "8 the end of the text"},
      {"tru", "0 true"},
      {"nul", "0 null"},
      {"[fals]", "1 false"},
      {"\"abc", "4 '\"' to end the string"},
      {"\"a\tb\"", "2 no control character in a string (\\n, \\t, \\u00XX)"},
      {R"("a\x")", "3 an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX"},
      {R"("\u12g4")", "5 a hex digit"},
      {"\"a\xff\"", "2 UTF-8 text"},
      {"\"\xed\xa0\x80\"", "1 UTF-8 text"},
      {"-", "1 a digit"},
      {"01", "1 the end of the text"},
      {"1.", "2 a digit"},
      {"1e+", "3 a digit"},
      {".5", "0 a value"},
      {"+1", "0 a value"},
  };
  for (const auto& [text, expected] : cases) EXPECT_EQ(faultOf(text), expected) << text;
}

TEST(JsonSyntax, NestingIsLimitedTo1024Levels) {
  EXPECT_EQ(faultOf(std::string(1024, '[') + std::string(1024, ']')), "valid");
  EXPECT_EQ(faultOf(std::string(1025, '[') + std::string(1025, ']')), "1024 at most 1024 levels of nesting");
  std::string objects;
  for (int level = 0; level < 2000; ++level) objects += R"({"a":)";
  EXPECT_EQ(faultOf(objects), "5120 at most 1024 levels of nesting");
}

TEST(JsonSyntax, APlaceIsALineAndAColumnOfCharacters) {
  EXPECT_EQ(lineAndColumn("abc", 0), "line 1, column 1");
  EXPECT_EQ(lineAndColumn("abc", 2), "line 1, column 3");
  EXPECT_EQ(lineAndColumn("abc", 3), "line 1, column 4");  // the end of the text
  EXPECT_EQ(lineAndColumn("ab\ncd", 3), "line 2, column 1");
  EXPECT_EQ(lineAndColumn("ab\r\ncd\r\nef", 9), "line 3, column 2");
  EXPECT_EQ(lineAndColumn("\xc3\xa9\xc3\xa9x", 4), "line 1, column 3");  // two characters of two bytes each
  EXPECT_EQ(lineAndColumn("a\rb", 2), "line 1, column 3");                // a CR alone is a character
}

}  // namespace
}  // namespace codepayload::common
