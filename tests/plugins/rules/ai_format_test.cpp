// aiFormat (plugins/rules/rule_ai_format.cpp): each value against its
// dictionary format (lengths, character sets) and linters; the first fault of
// a value with its offset in the (normalised) value.
#include <gtest/gtest.h>

#include "engine/validation_codes.h"
#include "tests/plugins/rules/rule_test_support.h"

namespace codepayload::testing {
namespace {

const TestAi kGtinKey{"01", "09506000134352"};

// The error aiFormat reports for ais.<index>.
ValidationError aiError(std::size_t index, std::vector<std::string> args) {
  return error(codes::ai(index), "ais." + std::to_string(index), std::move(args));
}

Errors formatOf(TestAi ai) {
  TestItem item({.primaryKey = kGtinKey, .ais = {std::move(ai)}});
  return item.run("aiFormat");
}

TEST(AiFormatRule, DescribesItselfInThePipeline) {
  const ModuleState& state = shippedModuleState("aiFormat");
  EXPECT_EQ(state.kind, "cpp");
  EXPECT_TRUE(state.enabled);
  EXPECT_EQ(state.reason, "each AI value against its dictionary format and linters");
}

TEST(AiFormatRule, ValidValuesPass) {
  TestItem item({.primaryKey = kGtinKey,
                 .ais = {{"10", "A"},
                         {"21", "ABCDEFGHIJKLMNOPQRST"},
                         {"17", "261231"},
                         {"7011", "2612312359"},
                         {"253", "9506000134352"},
                         {"8006", "095060001343520102"},
                         {"3103", "000500"}}});
  EXPECT_EQ(item.run("aiFormat"), Errors{});
}

TEST(AiFormatRule, VariableLengthBoundaries) {
  EXPECT_EQ(formatOf({"10", "A"}), Errors{});
  EXPECT_EQ(formatOf({"10", "ABCDEFGHIJKLMNOPQRST"}), Errors{});
  EXPECT_EQ(formatOf({"10", "ABCDEFGHIJKLMNOPQRSTU"}),
            (Errors{aiError(0, {"10", "format", "X..20", "tooLong", "20"})}));
  EXPECT_EQ(formatOf({"10", ""}), (Errors{aiError(0, {"10", "format", "X..20", "tooShort", "0"})}));
  EXPECT_EQ(formatOf({"37", "123456789"}), (Errors{aiError(0, {"37", "format", "N..8", "tooLong", "8"})}));
}

TEST(AiFormatRule, FixedLengthBoundaries) {
  EXPECT_EQ(formatOf({"17", "26123"}), (Errors{aiError(0, {"17", "format", "N6", "tooShort", "5"})}));
  EXPECT_EQ(formatOf({"17", "2612311"}), (Errors{aiError(0, {"17", "format", "N6", "tooLong", "6"})}));
  EXPECT_EQ(formatOf({"17", ""}), (Errors{aiError(0, {"17", "format", "N6", "tooShort", "0"})}));
}

TEST(AiFormatRule, CharacterSetFaultGivesTheOffset) {
  EXPECT_EQ(formatOf({"10", "AB CD"}), (Errors{aiError(0, {"10", "format", "X..20", "invalidCharacter", "2"})}));
  EXPECT_EQ(formatOf({"17", "26123A"}), (Errors{aiError(0, {"17", "format", "N6", "invalidCharacter", "5"})}));
  EXPECT_EQ(formatOf({"10", "\xC3\xA9"}), (Errors{aiError(0, {"10", "format", "X..20", "invalidCharacter", "0"})}));
  // In a later component the offset counts from the start of the value.
  EXPECT_EQ(formatOf({"253", "9506000134352AB CD"}),
            (Errors{aiError(0, {"253", "format", "N13 [X..17]", "invalidCharacter", "15"})}));
}

TEST(AiFormatRule, OnlyTheFirstFaultOfAValueIsReported) {
  // A space at offset 1 in a value that is also too long: the characters of
  // the first 20 are checked before the length.
  EXPECT_EQ(formatOf({"10", "A BCDEFGHIJKLMNOPQRSTUVWXYZ"}),
            (Errors{aiError(0, {"10", "format", "X..20", "invalidCharacter", "1"})}));
  // A bad character beyond the last component's maximum is a length fault.
  EXPECT_EQ(formatOf({"10", "ABCDEFGHIJKLMNOPQRST "}),
            (Errors{aiError(0, {"10", "format", "X..20", "tooLong", "20"})}));
}

TEST(AiFormatRule, OptionalComponentMayBeLeftOutButNotCut) {
  EXPECT_EQ(formatOf({"7011", "261231"}), Errors{});
  EXPECT_EQ(formatOf({"7011", "2612311"}), (Errors{aiError(0, {"7011", "format", "N6 [N4]", "tooShort", "7"})}));
  EXPECT_EQ(formatOf({"253", "9506000134352"}), Errors{});
  EXPECT_EQ(formatOf({"253", "950600013435"}),
            (Errors{aiError(0, {"253", "format", "N13 [X..17]", "tooShort", "12"})}));
}

TEST(AiFormatRule, LinterFaultGivesLinterReasonOffsetAndLength) {
  TestItem key({.primaryKey = {"01", "09506000134353"}});
  EXPECT_EQ(
      key.run("aiFormat"),
      (Errors{error(codes::primaryKey(), "primaryKey", {"01", "linter", "csum", "incorrectCheckDigit", "13", "1"})}));
  EXPECT_EQ(formatOf({"17", "261301"}), (Errors{aiError(0, {"17", "linter", "yymmd0", "illegalMonth", "2", "2"})}));
  // Linters of a later component: offsets count from the start of the value.
  EXPECT_EQ(formatOf({"7011", "2612312400"}),
            (Errors{aiError(0, {"7011", "linter", "hhmi", "illegalHour", "6", "2"})}));
  EXPECT_EQ(formatOf({"8006", "095060001343520302"}),
            (Errors{aiError(0, {"8006", "linter", "pieceoftotal", "pieceNumberExceedsTotal", "14", "4"})}));
  EXPECT_EQ(formatOf({"8006", "095060001343520100"}),
            (Errors{aiError(0, {"8006", "linter", "pieceoftotal", "zeroTotalPieces", "16", "2"})}));
}

TEST(AiFormatRule, LintersRunInDictionaryOrder) {
  // 01: N14,csum,gcppos2. A wrong check digit is reported by csum, the first.
  TestItem item({.primaryKey = {"01", "00000000000001"}});
  EXPECT_EQ(
      item.run("aiFormat"),
      (Errors{error(codes::primaryKey(), "primaryKey", {"01", "linter", "csum", "incorrectCheckDigit", "13", "1"})}));
}

TEST(AiFormatRule, EveryValueOfTheItemIsChecked) {
  TestItem item({.primaryKey = {"01", "0950600013435"}, .ais = {{"10", "A B"}, {"21", "S1"}, {"17", "26"}}});
  EXPECT_EQ(item.run("aiFormat"),
            (Errors{error(codes::primaryKey(), "primaryKey", {"01", "format", "N14", "tooShort", "13"}),
                    aiError(0, {"10", "format", "X..20", "invalidCharacter", "1"}),
                    aiError(2, {"17", "format", "N6", "tooShort", "2"})}));
}

TEST(AiFormatRule, ChecksTheNormalisedValue) {
  TestItem item({.primaryKey = {"01", "95012346"}});
  item.run("normalisation");
  EXPECT_EQ(item.run("aiFormat"), Errors{});

  // Without normalisation the same eight digits do not fit N14.
  TestItem raw({.primaryKey = {"01", "95012346"}});
  EXPECT_EQ(raw.run("aiFormat"),
            (Errors{error(codes::primaryKey(), "primaryKey", {"01", "format", "N14", "tooShort", "8"})}));

  TestItem temperature({.primaryKey = {"00", "095060000000000015"}, .ais = {{"4330", "12-"}}});
  temperature.run("normalisation");
  EXPECT_EQ(temperature.run("aiFormat"), Errors{});
}

TEST(AiFormatRule, SkipsUnknownAisAndValuesAlreadyRejected) {
  TestItem item({.primaryKey = {"01", "123456789"}, .ais = {{"7777", "anything"}, {"10", "A B"}}});
  EXPECT_EQ(item.run("normalisation"), (Errors{error(codes::primaryKey(), "primaryKey", {"01", "gtinLength", "9"})}));
  EXPECT_EQ(item.run("aiFormat"), (Errors{error(codes::primaryKey(), "primaryKey", {"01", "gtinLength", "9"}),
                                          aiError(1, {"10", "format", "X..20", "invalidCharacter", "1"})}));
}

TEST(AiFormatRule, LuaLinterOfAnOlderRelease) {
  // Release 2022-08-10 checks AI 4309 (N20,latlong) with rules/linters/latlong.lua.
  const Snapshot& rules = releaseRules("2022-08-10");
  auto run = [&](const char* value) {
    TestItem item({.primaryKey = {"00", "095060000000000015"}, .ais = {{"4309", value}}}, rules);
    return item.run("aiFormat");
  };
  EXPECT_EQ(run("18000000003600000000"), Errors{});
  EXPECT_EQ(run("18000000010000000000"),
            (Errors{aiError(0, {"4309", "linter", "latlong", "invalidLatitude", "0", "10"})}));
  EXPECT_EQ(run("00000000003600000001"),
            (Errors{aiError(0, {"4309", "linter", "latlong", "invalidLongitude", "10", "10"})}));
  EXPECT_EQ(run("0000000000360000000"), (Errors{aiError(0, {"4309", "format", "N20", "tooShort", "19"})}));
}

}  // namespace
}  // namespace codepayload::testing
