#include "db/import/attribute_syntax.h"

#include <gtest/gtest.h>

#include "db/import/import_error.h"

namespace codepayload::importer {
namespace {

AiDefinition withAttributes(const std::vector<std::string_view>& tokens) {
  AiDefinition ai;
  for (std::string_view token : tokens) applyAttribute(token, ai);
  return ai;
}

std::string errorOf(const std::vector<std::string_view>& tokens) {
  try {
    withAttributes(tokens);
  } catch (const SyntaxError& error) {
    return error.what();
  }
  return "no error";
}

std::vector<AiPattern> patterns(std::initializer_list<const char*> texts) {
  std::vector<AiPattern> result;
  for (const char* text : texts) result.push_back(AiPattern{text});
  return result;
}

TEST(AttributeSyntaxTest, RequiresKeepsAlternativesGroupsAndRepeats) {
  const AiDefinition ai = withAttributes({"req=01+21,02,35nn", "req=10"});
  ASSERT_EQ(ai.requirements.size(), 2u);
  EXPECT_EQ(ai.requirements[0].alternatives,
            (std::vector<std::vector<AiPattern>>{patterns({"01", "21"}), patterns({"02"}), patterns({"35nn"})}));
  EXPECT_EQ(ai.requirements[1].alternatives, (std::vector<std::vector<AiPattern>>{patterns({"10"})}));
  EXPECT_EQ(formatAttributes(ai), "req=01+21,02,35nn req=10");
}

TEST(AttributeSyntaxTest, ExcludesAddUpAcrossAttributes) {
  const AiDefinition ai = withAttributes({"ex=390n,391n", "ex=8111"});
  EXPECT_EQ(ai.excludes, patterns({"390n", "391n", "8111"}));
  EXPECT_EQ(formatAttributes(ai), "ex=390n,391n,8111");
}

TEST(AttributeSyntaxTest, PrimaryKeyWithAndWithoutQualifiers) {
  const AiDefinition bare = withAttributes({"dlpkey"});
  EXPECT_TRUE(bare.digitalLinkPrimaryKey);
  EXPECT_TRUE(bare.qualifierSequences.empty());
  EXPECT_EQ(formatAttributes(bare), "dlpkey");

  const AiDefinition gtin = withAttributes({"ex=255,37", "dlpkey=22,10,21|235"});
  EXPECT_TRUE(gtin.digitalLinkPrimaryKey);
  EXPECT_EQ(gtin.qualifierSequences, (std::vector<std::vector<std::string>>{{"22", "10", "21"}, {"235"}}));
  EXPECT_EQ(formatAttributes(gtin), "ex=255,37 dlpkey=22,10,21|235");
}

TEST(AttributeSyntaxTest, CanonicalOrderIsRequiresExcludesPrimaryKey) {
  EXPECT_EQ(formatAttributes(withAttributes({"dlpkey=8020", "req=8020", "ex=01"})), "req=8020 ex=01 dlpkey=8020");
  EXPECT_EQ(formatAttributes(AiDefinition{}), "");
}

struct BadRow {
  std::vector<std::string_view> tokens;
  std::string expected;
};

TEST(AttributeSyntaxTest, RefusesWithTheExactCause) {
  const BadRow rows[] = {
      {{"foo=1"}, "unknown attribute \"foo=1\" (known: req=, ex=, dlpkey)"},
      {{"dlpkeys"}, "unknown attribute \"dlpkeys\" (known: req=, ex=, dlpkey)"},
      {{"req"}, "attribute \"req\": needs a value (req=...)"},
      {{"ex"}, "attribute \"ex\": needs a value (ex=...)"},
      {{"req="}, "attribute \"req=\": empty value"},
      {{"ex="}, "attribute \"ex=\": empty value"},
      {{"dlpkey="}, "attribute \"dlpkey=\": empty value"},
      {{"req=00,,01"}, "attribute \"req=00,,01\": empty alternative"},
      {{"req=01,"}, "attribute \"req=01,\": empty alternative"},
      {{"req=01+"}, "attribute \"req=01+\": empty AI pattern"},
      {{"ex=01,"}, "attribute \"ex=01,\": empty AI pattern"},
      {{"req=0x"}, "attribute \"req=0x\": \"0x\" is not an AI or AI pattern"},
      {{"req=1"}, "attribute \"req=1\": \"1\" is not an AI or AI pattern"},
      {{"req=01234"}, "attribute \"req=01234\": \"01234\" is not an AI or AI pattern"},
      {{"req=n1"}, "attribute \"req=n1\": \"n1\" is not an AI or AI pattern"},
      {{"ex=01+02"}, "attribute \"ex=01+02\": \"01+02\" is not an AI or AI pattern"},
      {{"req=01+01"}, "attribute \"req=01+01\": \"01\" repeated in \"01+01\""},
      {{"req=00,00"}, "attribute \"req=00,00\": alternative \"00\" repeated"},
      {{"ex=01,01"}, "attribute \"ex=01,01\": \"01\" excluded twice"},
      {{"ex=01", "ex=01"}, "attribute \"ex=01\": \"01\" excluded twice"},
      {{"dlpkey", "dlpkey"}, "attribute \"dlpkey\": dlpkey given twice"},
      {{"dlpkey=22||10"}, "attribute \"dlpkey=22||10\": empty qualifier sequence"},
      {{"dlpkey=22,,10"}, "attribute \"dlpkey=22,,10\": empty qualifier"},
      {{"dlpkey=2n"}, "attribute \"dlpkey=2n\": \"2n\" is not an AI"},
      {{"dlpkey=22,22"}, "attribute \"dlpkey=22,22\": \"22\" repeated in \"22,22\""},
      {{"dlpkey=22|22"}, "attribute \"dlpkey=22|22\": qualifier sequence \"22\" repeated"},
  };
  for (const BadRow& row : rows) {
    SCOPED_TRACE(row.expected);
    EXPECT_EQ(errorOf(row.tokens), row.expected);
  }
}

TEST(AttributeSyntaxTest, AiAndPatternShapes) {
  EXPECT_TRUE(isAi("00"));
  EXPECT_TRUE(isAi("8030"));
  EXPECT_FALSE(isAi("0"));
  EXPECT_FALSE(isAi("31nn"));
  EXPECT_TRUE(isAiPattern("31nn"));
  EXPECT_TRUE(isAiPattern("310n"));
  EXPECT_FALSE(isAiPattern("nn"));
  EXPECT_FALSE(isAiPattern("31N1"));
}

}  // namespace
}  // namespace codepayload::importer
