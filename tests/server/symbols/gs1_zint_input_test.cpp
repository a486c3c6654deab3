// The element string as zint's GS1 input: brackets instead of parentheses,
// the escapes resolved, an AI beginning with "23" as zint's empty AI, and the
// element strings this service never writes refused with where and why.
#include "server/symbols/gs1_zint_input.h"

#include <gtest/gtest.h>

namespace codepayload::server::symbols {
namespace {

std::string zintInputOf(std::string_view elementString) {
  std::string fault;
  const std::optional<std::vector<ElementField>> fields = readElementString(elementString, fault);
  return fields ? zintGs1Input(*fields) : "refused: " + fault;
}

TEST(Gs1ZintInput, BracketsAndValuesAsTheyAre) {
  struct Row {
    std::string_view elementString;
    std::string_view zintInput;
  };
  for (const Row& row : std::initializer_list<Row>{
           {"(01)09520123456788", "[01]09520123456788"},
           {"(01)09520123456788(10)AB^040C^041(17)271231", "[01]09520123456788[10]AB(C)[17]271231"},
           {"(00)095201234567890125(21)^041^040", "[00]095201234567890125[21])("},
           {"(01)09520123456788(3103)000189(8012)V1.2", "[01]09520123456788[3103]000189[8012]V1.2"},
           // zint takes every AI beginning with "23" for one of a pre-defined length.
           {"(01)09520123456788(235)XYZ123(10)AB", "[01]09520123456788[]235XYZ123[10]AB"},
           {"(235)XYZ123", "[]235XYZ123"},
           {"(01)09520123456788(10)AB(235)X^040", "[01]09520123456788[10]AB[]235X("},
       }) {
    EXPECT_EQ(zintInputOf(row.elementString), row.zintInput) << row.elementString;
  }
}

TEST(Gs1ZintInput, TheHumanReadableTextHasTheParenthesesUnescaped) {
  std::string fault;
  const auto fields = readElementString("(01)09520123456788(10)AB^040C^041", fault);
  ASSERT_TRUE(fields.has_value()) << fault;
  EXPECT_EQ(humanReadableText(*fields), "(01)09520123456788(10)AB(C)");
  EXPECT_EQ(*fields, (std::vector<ElementField>{{"01", "09520123456788"}, {"10", "AB(C)"}}));
}

TEST(Gs1ZintInput, WhatIsNoElementStringOfThisServiceIsRefused) {
  struct Row {
    std::string_view elementString;
    std::string_view fault;
  };
  for (const Row& row : std::initializer_list<Row>{
           {"", "The element string is empty."},
           {"01095201", "An element string starts each AI with '(' (character 1 of the element string)."},
           {"(1)2", "An AI is 2 to 4 digits between '(' and ')' (character 1 of the element string)."},
           {"(12345)2", "An AI is 2 to 4 digits between '(' and ')' (character 1 of the element string)."},
           {"(10)A(1x)2", "An AI is 2 to 4 digits between '(' and ')' (character 6 of the element string)."},
           {"(10", "An AI is 2 to 4 digits between '(' and ')' (character 1 of the element string)."},
           {"(10)", "AI 10 has no value."},
           {"(10)(21)A", "AI 10 has no value."},
           {"(10)A^042", "Only ^040 and ^041 are escapes in an element string (character 6 of the element string)."},
           {"(10)A^04", "Only ^040 and ^041 are escapes in an element string (character 6 of the element string)."},
           {"(10)A[B",
            "A symbol drawn here holds printable ASCII other than square brackets in its values "
            "(character 6 of the element string)."},
           {"(10)A B",
            "A symbol drawn here holds printable ASCII other than square brackets in its values "
            "(character 6 of the element string)."},
           {"(10)A\x1d"
            "B",
            "A symbol drawn here holds printable ASCII other than square brackets in its values "
            "(character 6 of the element string)."},
           {"(10)A\xc3\xa9",
            "A symbol drawn here holds printable ASCII other than square brackets in its values "
            "(character 6 of the element string)."},
       }) {
    EXPECT_EQ(zintInputOf(row.elementString), "refused: " + std::string(row.fault)) << row.elementString;
  }
}

}  // namespace
}  // namespace codepayload::server::symbols
