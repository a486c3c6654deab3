// The messages of ValidationErrors (engine/validation_messages.h): every
// linter reason token has a sentence beside its linter (a new token without
// one fails here), every Sentence of the service has a template, and the
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
#include "engine/lua_runtime.h"
#include "engine/suggestions.h"
#include "plugins/linters/linters.h"
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

// Every sentence of the built-in linters' rows (engine/linter.h).
std::vector<lint::ReasonSentence> builtinLinterSentences() {
  std::vector<lint::ReasonSentence> sentences;
  lint::LinterTable table = lint::builtinLinters();
  for (const lint::LinterEntry* entry = table.begin; entry != table.end; ++entry) {
    for (const lint::ReasonSentence& sentence : entry->sentences()) sentences.push_back(sentence);
  }
  return sentences;
}

// The sentences of the built-in linter registered under `name` (none when absent).
lint::ReasonSentences linterSentences(std::string_view name) {
  const lint::LinterEntry* row = lint::builtinLinters().entry(name);
  return row != nullptr ? row->sentences() : lint::ReasonSentences{};
}

std::set<std::string> reasonsWithSentences() {
  std::set<std::string> reasons;
  for (const lint::ReasonSentence& entry : builtinLinterSentences()) reasons.emplace(entry.reason);
  return reasons;
}

// A linter's fault on the value "ABCDEFGH" as aiFormat reports it.
std::string describeLinterFault(std::string_view sentence) {
  Fault fault{.sentence = Sentence::LinterReason,
              .valueAsSent = "ABCDEFGH",
              .offset = 2,
              .length = 3,
              .expected = "7",
              .linter = "x",
              .linterSentence = sentence};
  return describe(fault, {"99", "linter", "x", "reason", "2", "3"});
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
  LuaRuntime lua(CODEPAYLOAD_SOURCE_RULES_DIR);
  int index = lua.addLinter("latlong");
  for (const std::string& reason : reasons) {
    EXPECT_FALSE(lua.linterSentence(index, reason).empty()) << reason << " has no sentence";
  }
  EXPECT_FALSE(lua.linterSentence(index, "linterError").empty());
  EXPECT_TRUE(lua.linterSentence(index, "tooOdd").empty());
}

// Every sentence renders completely: no placeholder is left, it starts with
// the AI and ends with a full stop.
TEST(LinterReasonSentences, RenderWithoutLeftoverPlaceholders) {
  for (const lint::ReasonSentence& entry : builtinLinterSentences()) {
    std::string message = describeLinterFault(entry.sentence);
    EXPECT_TRUE(message.starts_with("AI 99: ")) << message;
    EXPECT_TRUE(message.ends_with(".")) << message;
    EXPECT_EQ(message.find('{'), std::string::npos) << message;
    EXPECT_EQ(message.find("A rule refused"), std::string::npos) << message;
  }
}

// The reasons the service's own rule modules report (docs/decisions.md,
// "Payload engine: errors") all have their own sentence.
TEST(CodeSentences, EveryReasonOfTheServiceHasOne) {
  const std::vector<std::pair<Sentence, std::vector<std::string>>> errors = {
      {Sentence::UnknownAi, {"99", "unknownAi"}},
      {Sentence::NotPrimaryKey, {"10", "notPrimaryKey"}},
      {Sentence::PrimaryKeyOnlyInElementStrings, {"03", "notPrimaryKey"}},
      {Sentence::RepeatsPrimaryKey, {"01", "repeatsPrimaryKey"}},
      {Sentence::GtinLength, {"01", "gtinLength", "9"}},
      {Sentence::FormatTooShort, {"10", "format", "X..20", "tooShort", "0"}},
      {Sentence::FormatTooLong, {"10", "format", "X..20", "tooLong", "20"}},
      {Sentence::FormatInvalidCharacter, {"10", "format", "X..20", "invalidCharacter", "1"}},
      {Sentence::LinterReason, {"01", "linter", "csum", "incorrectCheckDigit", "2", "1"}},
      {Sentence::LinterReasonWithoutSentence, {"4309", "linter", "mylinter", "tooOdd", "1", "2"}},
      {Sentence::LinterFaultInPadding, {"01", "linter", "gcppos2", "invalidGcpPrefix", "0", "0"}},
      {Sentence::DuplicateAi, {"10", "0"}},
      {Sentence::NotInDigitalLink, {"8200"}},
      {Sentence::QualifierSequence, {"01", "235", "10"}},
      {Sentence::RelationRequires, {"01", "8006"}},
      {Sentence::RelationExcludes, {"01", "37"}},
      {Sentence::ExtensionParametersRequireStem, {"requiresDigitalLinkStem"}},
      {Sentence::DuplicateExtensionParameterKey, {"k", "duplicateKey"}},
      {Sentence::ReservedExtensionParameterKey, {"linkType", "reservedKey"}},
      {Sentence::NumericExtensionParameterKey, {"10", "numericKey"}},
      {Sentence::EmptyExtensionParameterKey, {"", "emptyKey"}},
      {Sentence::ExtensionParameterKeyCharacters, {"a b", "keyCharacters"}},
      {Sentence::ExtensionParameterValueCharacters, {"k", "valueCharacters"}},
      {Sentence::ContextCharacters, {"characters"}},
      {Sentence::ContextRequiresStem, {"requiresDigitalLinkStem"}},
      {Sentence::LinkTypeUnknown, {"x", "unknownLinkType"}},
      {Sentence::LinkTypeNotSelectable, {"x", "notSelectable"}},
      {Sentence::LinkTypeNotAbsoluteHttpUri, {"x", "notAbsoluteHttpUri"}},
      {Sentence::LinkTypeRequiresStem, {"x", "requiresDigitalLinkStem"}},
      {Sentence::RuleModuleFailed, {"ruleError"}},
      {Sentence::DataEmpty, {"empty"}},
      {Sentence::DataUnrecognised, {"unrecognised", "x"}},
      {Sentence::DataSymbologyIdentifier, {"symbologyIdentifier", "]E0"}},
      {Sentence::DataNoPrimaryKey, {"noPrimaryKey"}},
      {Sentence::DataUriSyntax, {"uriSyntax", "%G1"}},
      {Sentence::DataUnknownAi, {"unknownAi", "2"}},
      {Sentence::DataBracket, {"bracket", "("}},
      {Sentence::DataTruncated, {"truncated", "01"}},
      {Sentence::DataEmptyValue, {"emptyValue", "10"}},
      {Sentence::CompressedDigitalLink, {"ARHKVAdpQg"}},
      {Sentence::QualifierInQuery, {"10", "qualifierInQuery"}},
      {Sentence::AttributeInPath, {"17", "attributeInPath"}},
      {Sentence::QualifierOrder, {"01", "21", "10"}},
  };
  for (const auto& [sentence, args] : errors) {
    Fault fault{.sentence = sentence,
                .valueAsSent = "ABC",
                .expected = "7",
                .allowed = "(22, 10, 21)",
                .ai = "21",
                .module = "gcp_allowlist",
                .linter = "csum",
                .linterSentence = "the check digit {part} is wrong"};
    std::string message = describe(fault, args);
    const std::size_t index = static_cast<std::size_t>(sentence);
    EXPECT_EQ(message.find("A rule refused"), std::string::npos) << index << ": " << message;
    EXPECT_EQ(message.find('{'), std::string::npos) << index << ": " << message;
  }
  std::set<Sentence> listed;
  for (const auto& [sentence, args] : errors) listed.insert(sentence);
  std::set<Sentence> stems;
  for (const char* reason :
       {"scheme", "host", "port", "userinfo", "query", "fragment", "emptySegment", "dotSegment", "syntax"}) {
    Fault fault{.sentence = stemSentence(reason), .valueAsSent = "ABC"};
    stems.insert(fault.sentence);
    std::string message = describe(fault, {reason});
    EXPECT_TRUE(message.starts_with("The digitalLinkStem")) << reason << ": " << message;
  }
  EXPECT_EQ(stems.size(), 9u);
  EXPECT_EQ(listed.size() + stems.size(), kSentenceCount);
  EXPECT_EQ(sentenceTemplates().size(), kSentenceCount);
}

TEST(Messages, ACheckDigitNamesTheRightDigitAndItsPlaceInTheValueAsSent) {
  Fault fault{.sentence = Sentence::LinterReason,
              .valueAsSent = "614141000037",
              .offset = 11,
              .length = 1,
              .expected = "6",
              .linter = "csum",
              .linterSentence = lint::sentenceOf(linterSentences("csum"), "incorrectCheckDigit")};
  EXPECT_EQ(describe(fault, {"01", "linter", "csum", "incorrectCheckDigit", "11", "1"}),
            "AI 01: the check digit '7' (character 12 of '614141000037') is wrong; the right check digit is 6.");
  fault.valueAsSent = "1987654Ad4X4bL5ttr2310c2L";
  fault.offset = 23;
  fault.length = 2;
  fault.expected = "2K";
  fault.linter = "csumalpha";
  fault.linterSentence = lint::sentenceOf(linterSentences("csumalpha"), "incorrectCheckPair");
  EXPECT_EQ(describe(fault, {"8013", "linter", "csumalpha", "incorrectCheckPair", "23", "2"}),
            "AI 8013: the check character pair '2L' (characters 24 to 25 of '1987654Ad4X4bL5ttr2310c2L') is wrong; "
            "the right pair is 2K.");
}

TEST(Messages, AFaultInThePaddingSaysSo) {
  Fault fault{
      .sentence = Sentence::LinterFaultInPadding, .valueAsSent = "95060002", .inPadding = true, .linter = "gcppos2"};
  EXPECT_EQ(describe(fault, {"01", "linter", "gcppos2", "invalidGcpPrefix", "0", "0"}),
            "AI 01: the check gcppos2 (invalidGcpPrefix) fails on the zeros added in front of '95060002' to normalise "
            "it; send the value in its full length.");
}

TEST(Messages, ASpanIsWidenedToWholeUtf8Characters) {
  // "ABé": the charset check names the first byte of 'é'
  Fault fault{.sentence = Sentence::FormatInvalidCharacter, .valueAsSent = "AB\xC3\xA9", .offset = 2, .length = 1};
  EXPECT_EQ(describe(fault, {"10", "format", "X..20", "invalidCharacter", "2"}),
            "AI 10: '\xC3\xA9' at character 3 of 'AB\xC3\xA9' is not allowed by the format X..20.");
}

TEST(Messages, PrimaryKeysOnlyInElementStringsSaySo) {
  EXPECT_EQ(describe(Fault{.sentence = Sentence::PrimaryKeyOnlyInElementStrings}, {"03", "notPrimaryKey"}),
            "AI 03 is a primary key only in element strings: leave out the digitalLinkStem, or use a Digital Link "
            "primary key such as 01.");
  EXPECT_EQ(describe(Fault{.sentence = Sentence::NotPrimaryKey}, {"10", "notPrimaryKey"}),
            "AI 10 cannot be the primary key: use a GS1 identification key (such as 01, the GTIN) as primaryKey and "
            "give AI 10 in ais.");
}

TEST(Messages, SuggestionsAndAllowedSequences) {
  EXPECT_EQ(
      describe(Fault{.sentence = Sentence::LinkTypeUnknown, .suggestion = "gs1:pip"}, {"gs1:PIP", "unknownLinkType"}),
      "linkType 'gs1:PIP' is not in the GS1 Web Vocabulary; did you mean gs1:pip?");
  EXPECT_EQ(describe(Fault{.sentence = Sentence::LinkTypeUnknown}, {"gs1:nothing", "unknownLinkType"}),
            "linkType 'gs1:nothing' is not in the GS1 Web Vocabulary.");
  EXPECT_EQ(describe(Fault{.sentence = Sentence::UnknownAi, .suggestion = "01"}, {"(01)", "unknownAi"}),
            "AI '(01)' is not in the GS1 Barcode Syntax Dictionary; did you mean 01?");
  EXPECT_EQ(
      describe(Fault{.sentence = Sentence::QualifierSequence, .allowed = "(22, 10, 21) or (235)"}, {"01", "235", "10"}),
      "The key qualifiers 235, 10 of primary key 01 do not all come from one of its qualifier sequences: "
      "(22, 10, 21) or (235).");
}

TEST(Messages, RequirementsReadAsAlternatives) {
  EXPECT_EQ(describe(Fault{.sentence = Sentence::RelationRequires, .ai = "254"}, {"414"}),
            "AI 254 needs AI 414 in the same code.");
  EXPECT_EQ(describe(Fault{.sentence = Sentence::RelationRequires, .ai = "8041"}, {"01+21+8040"}),
            "AI 8041 needs AIs 01, 21 and 8040 in the same code.");
  EXPECT_EQ(describe(Fault{.sentence = Sentence::RelationRequires, .ai = "8030"}, {"00", "01+21", "253"}),
            "AI 8030 needs one of 00, 01 with 21 or 253 in the same code.");
}

// Codes of Lua modules without a message get a generic sentence made of the
// code and the args; a linter reason without a sentence, a generic one too.
TEST(Messages, UnknownCodesAndReasonsGetAGenericSentence) {
  EXPECT_EQ(describeUnknown("Validation.Invalid.primaryKey", {"01", "gcpNotAllowed"}),
            "A rule refused primaryKey (01, gcpNotAllowed).");
  EXPECT_EQ(describeUnknown("Validation.Invalid.custom.thing", {}), "A rule refused custom.thing.");
  Fault fault{.sentence = Sentence::LinterReasonWithoutSentence,
              .valueAsSent = "12345",
              .offset = 1,
              .length = 2,
              .linter = "mylinter"};
  EXPECT_EQ(describe(fault, {"4309", "linter", "mylinter", "tooOdd", "1", "2"}),
            "AI 4309: '12345' fails the check mylinter (tooOdd) at characters 2 to 3 of '12345'.");
}

TEST(Messages, TextFromTheRequestIsCutTo100Bytes) {
  const std::string key(150, '7');
  EXPECT_EQ(describe(Fault{.sentence = Sentence::UnknownAi}, {key, "unknownAi"}),
            "AI '" + std::string(100, '7') + "...' is not in the GS1 Barcode Syntax Dictionary.");
  // Never inside a UTF-8 character: the 'é' at bytes 100 and 101 is left out whole.
  const std::string value = std::string(99, 'A') + "\xC3\xA9" + "B";
  Fault fault{.sentence = Sentence::FormatTooLong, .valueAsSent = value, .offset = 20, .length = 1};
  EXPECT_EQ(describe(fault, {"10", "format", "X..20", "tooLong", "20"}),
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
