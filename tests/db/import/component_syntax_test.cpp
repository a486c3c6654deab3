#include "db/import/component_syntax.h"

#include <gtest/gtest.h>

#include "db/import/import_error.h"

namespace codepayload::importer {
namespace {

std::string errorOf(const std::vector<std::string_view>& tokens) {
  try {
    parseSpecification(tokens);
  } catch (const SyntaxError& error) {
    return error.what();
  }
  return "no error";
}

struct GoodRow {
  std::string_view token;
  ComponentSpec expected;
};

TEST(ComponentSyntaxTest, ParsesEveryForm) {
  const GoodRow rows[] = {
      {"N14,csum,gcppos2", {CharacterSet::Numeric, 14, 14, false, {"csum", "gcppos2"}}},
      {"N5", {CharacterSet::Numeric, 5, 5, false, {}}},
      {"X..20", {CharacterSet::Cset82, 1, 20, false, {}}},
      {"N..20", {CharacterSet::Numeric, 1, 20, false, {}}},
      {"[X..17]", {CharacterSet::Cset82, 1, 17, true, {}}},
      {"[N3],iso3166", {CharacterSet::Numeric, 3, 3, true, {"iso3166"}}},
      {"Y..30,gcppos1", {CharacterSet::Cset39, 1, 30, false, {"gcppos1"}}},
      {"Z..90", {CharacterSet::Base64Url, 1, 90, false, {}}},
      {"N1", {CharacterSet::Numeric, 1, 1, false, {}}},
      {"X99", {CharacterSet::Cset82, 99, 99, false, {}}},
      {"X..25,csumalpha,gcppos1,hasnondigit",
       {CharacterSet::Cset82, 1, 25, false, {"csumalpha", "gcppos1", "hasnondigit"}}},
  };
  for (const GoodRow& row : rows) {
    SCOPED_TRACE(row.token);
    EXPECT_EQ(parseComponent(row.token), row.expected);
    EXPECT_EQ(formatComponent(row.expected), row.token);
  }
}

TEST(ComponentSyntaxTest, SpecificationKeepsOrderAndFormatsBack) {
  const std::vector<std::string_view> tokens = {"N13,csum,gcppos1", "[X..17]"};
  const std::vector<ComponentSpec> components = parseSpecification(tokens);
  ASSERT_EQ(components.size(), 2u);
  EXPECT_EQ(components[0], (ComponentSpec{CharacterSet::Numeric, 13, 13, false, {"csum", "gcppos1"}}));
  EXPECT_EQ(components[1], (ComponentSpec{CharacterSet::Cset82, 1, 17, true, {}}));
  EXPECT_EQ(formatSpecification(components), "N13,csum,gcppos1 [X..17]");
}

struct BadRow {
  std::vector<std::string_view> tokens;
  std::string expected;
};

TEST(ComponentSyntaxTest, RefusesWithTheExactCause) {
  const BadRow rows[] = {
      {{"N.."}, "component \"N..\": missing length"},
      {{"N"}, "component \"N\": missing length"},
      {{"N,csum"}, "component \"N,csum\": missing length"},
      {{"[]"}, "component \"[]\": missing character set"},
      {{"Q5"}, "component \"Q5\": unknown character set \"Q\" (expected N, X, Y or Z)"},
      {{"N0"}, "component \"N0\": length \"0\" is not a number from 1 to 99"},
      {{"N05"}, "component \"N05\": length \"05\" is not a number from 1 to 99"},
      {{"N100"}, "component \"N100\": length \"100\" is not a number from 1 to 99"},
      {{"N1x"}, "component \"N1x\": length \"1x\" is not a number from 1 to 99"},
      {{"X...5"}, "component \"X...5\": length \".5\" is not a number from 1 to 99"},
      {{"X.5"}, "component \"X.5\": length \".5\" is not a number from 1 to 99"},
      {{"[X..17"}, "component \"[X..17\": missing \"]\" after the type"},
      {{"["}, "component \"[\": missing \"]\" after the type"},
      {{"[N3,iso3166]"}, "component \"[N3,iso3166]\": missing \"]\" after the type"},
      {{"X..17]"}, "component \"X..17]\": \"]\" without \"[\""},
      {{"N14,,csum"}, "component \"N14,,csum\": empty linter name"},
      {{"N14,csum,"}, "component \"N14,csum,\": empty linter name"},
      {{"N14,Csum"}, "component \"N14,Csum\": linter name \"Csum\" is not lowercase letters and digits"},
      {{"N14,c-sum"}, "component \"N14,c-sum\": linter name \"c-sum\" is not lowercase letters and digits"},
      {{"N14,csum,csum"}, "component \"N14,csum,csum\": linter \"csum\" listed twice"},
      {{"X..5", "N2"}, "component \"X..5\": only the last component may have variable length"},
      {{"[N2]", "N3"}, "component \"N3\": mandatory component after an optional one"},
      {{}, "no format specification"},
  };
  for (const BadRow& row : rows) {
    SCOPED_TRACE(row.expected);
    EXPECT_EQ(errorOf(row.tokens), row.expected);
  }
}

TEST(ComponentSyntaxTest, RecognisesComponentTokens) {
  EXPECT_TRUE(looksLikeComponent("N14"));
  EXPECT_TRUE(looksLikeComponent("[X..17]"));
  EXPECT_FALSE(looksLikeComponent("req=01"));
  EXPECT_FALSE(looksLikeComponent("*?"));
  EXPECT_FALSE(looksLikeComponent(""));
}

}  // namespace
}  // namespace codepayload::importer
