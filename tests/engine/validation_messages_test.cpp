// The messages of ValidationErrors (engine/validation_messages.h): every
// linter reason token has a sentence of its own (a new token without one
// fails here), every reason of the service's own codes has one, and the
// sentences say what was wrong and what was expected, with positions in the
// value as sent. Near misses (engine/suggestions.h) are pinned here too.
#include "engine/validation_messages.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/item.h"
#include "engine/suggestions.h"
#include "tests/engine/rules_fixture.h"

namespace codepayload::messages {
namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every quoted camelCase token of `text` matched by `pattern` (group 1).
std::set<std::string> tokens(const std::string& text, const std::regex& pattern) {
  std::set<std::string> found;
  for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) found.insert((*it)[1]);
  return found;
}

std::set<std::string> reasonsWithSentences() {
  std::set<std::string> reasons;
  for (const ReasonSentence& entry : linterReasonSentences()) reasons.emplace(entry.reason);
  return reasons;
}

TEST(LinterReasonSentences, EveryBuiltInReasonTokenHasOne) {
  std::string header = readText(CODEPAYLOAD_LINT_REASONS_HEADER);
  std::set<std::string> reasons = tokens(header, std::regex(R"re(inline constexpr const char\* k\w+ = "(\w+)";)re"));
  ASSERT_GT(reasons.size(), 100u) << "lint_reasons.h was not read: " << CODEPAYLOAD_LINT_REASONS_HEADER;
  std::set<std::string> known = reasonsWithSentences();
  for (const std::string& reason : reasons) EXPECT_TRUE(known.contains(reason)) << reason << " has no sentence";
}

TEST(LinterReasonSentences, TheShippedLuaLinterReasonsHaveOne) {
  std::string latlong = readText(std::string(CODEPAYLOAD_SOURCE_RULES_DIR) + "/linters/latlong.lua");
  std::set<std::string> reasons = tokens(latlong, std::regex(R"re(return "(\w+)",)re"));
  EXPECT_EQ(reasons, (std::set<std::string>{"invalidLatitude", "invalidLongitude", "latlongInvalidLength",
                                            "nonDigitCharacter"}));
  std::set<std::string> known = reasonsWithSentences();
  for (const std::string& reason : reasons) EXPECT_TRUE(known.contains(reason)) << reason << " has no sentence";
  EXPECT_TRUE(known.contains("linterError"));
}

// Every sentence renders completely: no placeholder is left, it starts with
// the AI and ends with a full stop.
TEST(LinterReasonSentences, RenderWithoutLeftoverPlaceholders) {
  MessageFacts facts;
  facts.valueAsSent = "ABCDEFGH";
  facts.expected = "7";
  for (const ReasonSentence& entry : linterReasonSentences()) {
    std::string message =
        describe("Validation.Invalid.ais.0", {"99", "linter", "x", std::string(entry.reason), "2", "3"}, facts);
    EXPECT_TRUE(message.starts_with("AI 99: ")) << message;
    EXPECT_TRUE(message.ends_with(".")) << message;
    EXPECT_EQ(message.find('{'), std::string::npos) << message;
    EXPECT_EQ(message.find("A rule refused"), std::string::npos) << message;
  }
}

// The reasons the service's own rule modules report (docs/decisions.md,
// "Payload engine: errors") all have their own sentence.
TEST(CodeSentences, EveryReasonOfTheServiceHasOne) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> errors = {
      {"Validation.Invalid.primaryKey", {"99", "unknownAi"}},
      {"Validation.Invalid.primaryKey", {"10", "notPrimaryKey"}},
      {"Validation.Invalid.ais.2", {"01", "repeatsPrimaryKey"}},
      {"Validation.Invalid.ais.2", {"01", "gtinLength", "9"}},
      {"Validation.Invalid.ais.2", {"10", "format", "X..20", "tooShort", "0"}},
      {"Validation.Invalid.ais.2", {"10", "format", "X..20", "tooLong", "20"}},
      {"Validation.Invalid.ais.2", {"10", "format", "X..20", "invalidCharacter", "1"}},
      {"Validation.Invalid.ais", {"10", "0"}},
      {"Validation.Invalid.ais.1.digitalLink", {"8200"}},
      {"Validation.Invalid.relations.21.requires", {"01", "8006"}},
      {"Validation.Invalid.relations.01.excludes.37", {"01", "37"}},
      {"Validation.Invalid.extensionParameters", {"requiresDigitalLinkStem"}},
      {"Validation.Invalid.extensionParameters", {"k", "duplicateKey"}},
      {"Validation.Invalid.extensionParameters.0", {"linkType", "reservedKey"}},
      {"Validation.Invalid.extensionParameters.0", {"10", "numericKey"}},
      {"Validation.Invalid.extensionParameters.0", {"", "emptyKey"}},
      {"Validation.Invalid.extensionParameters.0", {"a b", "keyCharacters"}},
      {"Validation.Invalid.extensionParameters.0", {"k", "valueCharacters"}},
      {"Validation.Invalid.context", {"characters"}},
      {"Validation.Invalid.context", {"requiresDigitalLinkStem"}},
      {"Validation.Invalid.linkType", {"x", "unknownLinkType"}},
      {"Validation.Invalid.linkType", {"x", "notSelectable"}},
      {"Validation.Invalid.linkType", {"x", "notAbsoluteHttpUri"}},
      {"Validation.Invalid.linkType", {"x", "requiresDigitalLinkStem"}},
      {"Validation.Invalid.rule.gcp_allowlist", {"ruleError"}},
  };
  MessageFacts facts;
  facts.valueAsSent = "ABC";
  for (const auto& [code, args] : errors) {
    std::string message = describe(code, args, facts);
    EXPECT_EQ(message.find("A rule refused"), std::string::npos) << code << ": " << message;
    EXPECT_EQ(message.find('{'), std::string::npos) << code << ": " << message;
  }
  for (const char* reason :
       {"scheme", "host", "port", "userinfo", "query", "fragment", "emptySegment", "dotSegment", "syntax"}) {
    std::string message = describe("Validation.Invalid.digitalLinkStem", {reason}, facts);
    EXPECT_TRUE(message.starts_with("The digitalLinkStem")) << reason << ": " << message;
  }
}

TEST(Messages, ACheckDigitNamesTheRightDigitAndItsPlaceInTheValueAsSent) {
  MessageFacts facts;
  facts.valueAsSent = "614141000037";
  facts.expected = "6";
  EXPECT_EQ(
      describe("Validation.Invalid.primaryKey", {"01", "linter", "csum", "incorrectCheckDigit", "11", "1"}, facts),
      "AI 01: the check digit '7' (character 12 of '614141000037') is wrong; the right check digit is 6.");
  facts.valueAsSent = "1987654Ad4X4bL5ttr2310c2L";
  facts.expected = "2K";
  EXPECT_EQ(
      describe("Validation.Invalid.ais.0", {"8013", "linter", "csumalpha", "incorrectCheckPair", "23", "2"}, facts),
      "AI 8013: the check character pair '2L' (characters 24 to 25 of '1987654Ad4X4bL5ttr2310c2L') is wrong; "
      "the right pair is 2K.");
}

TEST(Messages, AFaultInThePaddingSaysSo) {
  MessageFacts facts;
  facts.valueAsSent = "95060002";
  facts.inPadding = true;
  EXPECT_EQ(describe("Validation.Invalid.primaryKey", {"01", "linter", "gcppos2", "invalidGcpPrefix", "0", "0"}, facts),
            "AI 01: the check gcppos2 (invalidGcpPrefix) fails on the zeros added in front of '95060002' to normalise "
            "it; send the value in its full length.");
}

TEST(Messages, ASpanIsWidenedToWholeUtf8Characters) {
  MessageFacts facts;
  facts.valueAsSent = "AB\xC3\xA9";  // "ABé": the charset check names the first byte of 'é'
  EXPECT_EQ(describe("Validation.Invalid.ais.0", {"10", "format", "X..20", "invalidCharacter", "2"}, facts),
            "AI 10: '\xC3\xA9' at character 3 of 'AB\xC3\xA9' is not allowed by the format X..20.");
}

TEST(Messages, PrimaryKeysOnlyInElementStringsSaySo) {
  MessageFacts facts;
  facts.elementStringOnly = true;
  EXPECT_EQ(describe("Validation.Invalid.primaryKey", {"03", "notPrimaryKey"}, facts),
            "AI 03 is a primary key only in element strings: leave out the digitalLinkStem, or use a Digital Link "
            "primary key such as 01.");
  EXPECT_EQ(describe("Validation.Invalid.primaryKey", {"10", "notPrimaryKey"}, {}),
            "AI 10 cannot be the primary key: use a GS1 identification key (such as 01, the GTIN) as primaryKey and "
            "give AI 10 in ais.");
}

TEST(Messages, SuggestionsAndAllowedSequences) {
  MessageFacts facts;
  facts.suggestion = "gs1:pip";
  EXPECT_EQ(describe("Validation.Invalid.linkType", {"gs1:PIP", "unknownLinkType"}, facts),
            "linkType 'gs1:PIP' is not in the GS1 Web Vocabulary; did you mean gs1:pip?");
  EXPECT_EQ(describe("Validation.Invalid.linkType", {"gs1:nothing", "unknownLinkType"}, {}),
            "linkType 'gs1:nothing' is not in the GS1 Web Vocabulary.");
  facts.suggestion = "01";
  EXPECT_EQ(describe("Validation.Invalid.ais.0", {"(01)", "unknownAi"}, facts),
            "AI '(01)' is not in the GS1 Barcode Syntax Dictionary; did you mean 01?");
  MessageFacts qualifiers;
  qualifiers.allowed = "(22, 10, 21) or (235)";
  EXPECT_EQ(describe("Validation.Invalid.ais.qualifiers", {"01", "235", "10"}, qualifiers),
            "The key qualifiers 235, 10 of primary key 01 do not all come from one of its qualifier sequences: "
            "(22, 10, 21) or (235).");
}

TEST(Messages, RequirementsReadAsAlternatives) {
  EXPECT_EQ(describe("Validation.Invalid.relations.254.requires", {"414"}, {}),
            "AI 254 needs AI 414 in the same code.");
  EXPECT_EQ(describe("Validation.Invalid.relations.8041.requires", {"01+21+8040"}, {}),
            "AI 8041 needs AIs 01, 21 and 8040 in the same code.");
  EXPECT_EQ(describe("Validation.Invalid.relations.8030.requires", {"00", "01+21", "253"}, {}),
            "AI 8030 needs one of 00, 01 with 21 or 253 in the same code.");
}

// Codes and reasons no table knows (Lua modules and linters) get a generic
// sentence made of the code and the args.
TEST(Messages, UnknownCodesAndReasonsGetAGenericSentence) {
  EXPECT_EQ(describe("Validation.Invalid.primaryKey", {"01", "gcpNotAllowed"}, {}),
            "A rule refused primaryKey (01, gcpNotAllowed).");
  EXPECT_EQ(describe("Validation.Invalid.custom.thing", {}, {}), "A rule refused custom.thing.");
  MessageFacts facts;
  facts.valueAsSent = "12345";
  EXPECT_EQ(describe("Validation.Invalid.ais.0", {"4309", "linter", "mylinter", "tooOdd", "1", "2"}, facts),
            "AI 4309: '12345' fails the check mylinter (tooOdd) at characters 2 to 3 of '12345'.");
}

TEST(Messages, TextFromTheRequestIsCutTo100Bytes) {
  const std::string key(150, '7');
  EXPECT_EQ(describe("Validation.Invalid.primaryKey", {key, "unknownAi"}, {}),
            "AI '" + std::string(100, '7') + "...' is not in the GS1 Barcode Syntax Dictionary.");
  // Never inside a UTF-8 character: the 'é' at bytes 100 and 101 is left out whole.
  MessageFacts facts;
  const std::string value = std::string(99, 'A') + "\xC3\xA9" + "B";
  facts.valueAsSent = value;
  EXPECT_EQ(describe("Validation.Invalid.ais.0", {"10", "format", "X..20", "tooLong", "20"}, facts),
            "AI 10: '" + std::string(99, 'A') +
                "...' is too long for the format X..20; character 21 and those after "
                "it are extra.");
}

TEST(SpanAsSent, MapsOffsetsOfANormalisedValueBackToTheValueAsSent) {
  ItemAi gtin;
  gtin.sentValue = "614141000037";
  gtin.normalisedValue = "00614141000037";
  gtin.normalised = true;
  SentSpan checkDigit = gtin.spanAsSent(13, 1);
  EXPECT_EQ(checkDigit.offset, 11u);
  EXPECT_EQ(checkDigit.length, 1u);
  EXPECT_FALSE(checkDigit.inPadding);
  SentSpan acrossPadding = gtin.spanAsSent(1, 4);  // "0614": one padding zero, three typed digits
  EXPECT_EQ(acrossPadding.offset, 0u);
  EXPECT_EQ(acrossPadding.length, 3u);
  EXPECT_FALSE(acrossPadding.inPadding);
  SentSpan inPadding = gtin.spanAsSent(0, 2);
  EXPECT_EQ(inPadding.offset, 0u);
  EXPECT_EQ(inPadding.length, 0u);
  EXPECT_TRUE(inPadding.inPadding);
  SentSpan end = gtin.spanAsSent(14, 0);  // "too short" points after the last character
  EXPECT_EQ(end.offset, 12u);
  EXPECT_FALSE(end.inPadding);
  ItemAi plain;
  plain.sentValue = "ABC";
  EXPECT_EQ(plain.spanAsSent(2, 1).offset, 2u);
}

TEST(Suggestions, LinkTypesByCaseThenByEditDistance) {
  const std::vector<std::string> selectable = {"gs1:pip", "gs1:recipeInfo", "gs1:epil", "gs1:certificationInfo",
                                               "gs1:productSustainabilityInfo"};
  EXPECT_EQ(suggest::linkType("gs1:PIP", selectable), "gs1:pip");
  EXPECT_EQ(suggest::linkType("GS1:RecipeInfo", selectable), "gs1:recipeInfo");
  EXPECT_EQ(suggest::linkType("pip", selectable), "gs1:pip");
  EXPECT_EQ(suggest::linkType("gs1:recipeinf", selectable), "gs1:recipeInfo");
  EXPECT_EQ(suggest::linkType("gs1:certificationIfno", selectable), "gs1:certificationInfo");  // transposition
  EXPECT_EQ(suggest::linkType("gs1:shoppingCart", selectable), "");
  EXPECT_EQ(suggest::linkType("gs1:pi", selectable), "gs1:pip");
  EXPECT_EQ(suggest::linkType("gs1:epip", selectable), "");  // one edit from gs1:pip and from gs1:epil
  EXPECT_EQ(suggest::linkType("gs1:", selectable), "");
}

TEST(Suggestions, AisOnlyWhenPlausible) {
  const Snapshot& rules = *testing::newestSnapshot();
  EXPECT_EQ(suggest::ai("(01)", rules), "01");
  EXPECT_EQ(suggest::ai(" 10", rules), "10");
  EXPECT_EQ(suggest::ai("O1", rules), "01");
  EXPECT_EQ(suggest::ai("2l", rules), "21");
  EXPECT_EQ(suggest::ai("1", rules), "01");
  EXPECT_EQ(suggest::ai("23", rules), "");  // not an AI, but no plausible near miss
  EXPECT_EQ(suggest::ai("9999", rules), "");
  EXPECT_EQ(suggest::ai("AB", rules), "");
}

}  // namespace
}  // namespace codepayload::messages
