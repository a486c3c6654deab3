#include "auth/form_urlencoded.h"

#include <gtest/gtest.h>

namespace codepayload::auth {
namespace {

TEST(DecodeFormComponent, DecodesPlusAndEscapes) {
  std::string out;
  ASSERT_TRUE(decodeFormComponent("a+b%2Bc%3a%3A%41%62", out));
  EXPECT_EQ(out, "a b+c::Ab");
  ASSERT_TRUE(decodeFormComponent("%00x", out));
  EXPECT_EQ(out, std::string("\0x", 2));
  ASSERT_TRUE(decodeFormComponent("", out));
  EXPECT_EQ(out, "");
}

TEST(DecodeFormComponent, RejectsBadEscapes) {
  std::string out;
  for (const std::string_view text : {"%zz", "%", "abc%", "%4", "%4g", "a%%41"}) {
    EXPECT_FALSE(decodeFormComponent(text, out)) << text;
    EXPECT_EQ(out, "") << text;
  }
}

TEST(ParseForm, SplitsDecodesAndKeepsOrderAndDuplicates) {
  std::vector<FormField> fields;
  ASSERT_EQ(parseForm("grant_type=client_credentials&x=&flag&&a=1=2&grant_type=b+c&", 16, fields), FormError::None);
  const std::vector<FormField> expected = {
      {"grant_type", "client_credentials"}, {"x", ""}, {"flag", ""}, {"a", "1=2"}, {"grant_type", "b c"}};
  EXPECT_EQ(fields, expected);
}

TEST(ParseForm, NamesAreDecodedAndCaseSensitive) {
  std::vector<FormField> fields;
  ASSERT_EQ(parseForm("GRANT_TYPE=x&grant%5Ftype=y", 16, fields), FormError::None);
  const std::vector<FormField> expected = {{"GRANT_TYPE", "x"}, {"grant_type", "y"}};
  EXPECT_EQ(fields, expected);
}

TEST(ParseForm, EmptyTextHasNoFields) {
  std::vector<FormField> fields = {{"left", "over"}};
  ASSERT_EQ(parseForm("", 16, fields), FormError::None);
  EXPECT_TRUE(fields.empty());
}

TEST(ParseForm, RejectsBadEscapeInNameOrValue) {
  std::vector<FormField> fields;
  EXPECT_EQ(parseForm("grant_type=%zz", 16, fields), FormError::BadEscape);
  EXPECT_EQ(parseForm("grant_type=client_credentials%", 16, fields), FormError::BadEscape);
  EXPECT_EQ(parseForm("a%=b", 16, fields), FormError::BadEscape);
  EXPECT_TRUE(fields.empty());
}

TEST(ParseForm, RejectsMoreFieldsThanAllowed) {
  std::vector<FormField> fields;
  EXPECT_EQ(parseForm("a=1&b=2&c=3", 3, fields), FormError::None);
  EXPECT_EQ(parseForm("a=1&b=2&c=3&d=4", 3, fields), FormError::TooManyFields);
  EXPECT_TRUE(fields.empty());
}

}  // namespace
}  // namespace codepayload::auth
