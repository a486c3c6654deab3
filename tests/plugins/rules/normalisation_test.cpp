// normalisation (plugins/rules/rule_normalisation.cpp): GTINs of 8, 12 or 13
// digits to 14; temperatures left-padded to six digits, a trailing minus kept.
#include <gtest/gtest.h>

#include "engine/validation_codes.h"
#include "tests/plugins/rules/rule_test_support.h"

namespace codepayload::testing {
namespace {

struct Normalised {
  bool normalised;
  std::string value;  // ItemAi::value() after the module
  bool valueRejected;

  bool operator==(const Normalised&) const = default;
};

void PrintTo(const Normalised& n, std::ostream* out) {
  *out << "{normalised=" << n.normalised << ", value=\"" << n.value << "\", rejected=" << n.valueRejected << "}";
}

Normalised stateOf(const ItemAi& ai) { return {ai.normalised, std::string(ai.value()), ai.valueRejected}; }

TEST(NormalisationRule, DescribesItselfInThePipeline) {
  const ModuleState& state = shippedModuleState("normalisation");
  EXPECT_EQ(state.kind, "cpp");
  EXPECT_TRUE(state.enabled);
  EXPECT_EQ(state.reason, "GTIN to 14 digits, temperatures padded to six digits");
}

TEST(NormalisationRule, ShippedSettings) {
  EXPECT_EQ(settingList(shippedModuleSettings("normalisation"), "gtinAis"), std::vector<std::string>{"01"});
  EXPECT_EQ(settingList(shippedModuleSettings("normalisation"), "temperatureAis"),
            (std::vector<std::string>{"4330", "4331", "4332", "4333"}));
}

TEST(NormalisationRule, GtinOfEightTwelveAndThirteenDigitsBecomesFourteen) {
  struct Row {
    const char* sent;
    const char* expected;
  };
  for (Row row : {Row{"95012346", "00000095012346"}, Row{"950600013435", "00950600013435"},
                  Row{"9506000134352", "09506000134352"}}) {
    TestItem item({.primaryKey = {"01", row.sent}});
    EXPECT_EQ(item.run("normalisation"), Errors{}) << row.sent;
    EXPECT_EQ(stateOf(item.primaryKey()), (Normalised{true, row.expected, false})) << row.sent;
    EXPECT_EQ(item.primaryKey().sentValue, row.sent);
  }
}

TEST(NormalisationRule, FourteenDigitGtinIsLeftAsSent) {
  TestItem item({.primaryKey = {"01", "09506000134352"}});
  EXPECT_EQ(item.run("normalisation"), Errors{});
  EXPECT_EQ(stateOf(item.primaryKey()), (Normalised{false, "09506000134352", false}));
}

TEST(NormalisationRule, GtinOfDigitsWithAnUndefinedLengthIsReported) {
  for (std::string sent : {"1", "1234567", "123456789", "12345678901", "123456789012345", "1234567890123456789"}) {
    TestItem item({.primaryKey = {"01", sent}});
    EXPECT_EQ(item.run("normalisation"),
              (Errors{error(codes::primaryKey(), "primaryKey", {"01", "gtinLength", std::to_string(sent.size())})}))
        << sent;
    EXPECT_EQ(stateOf(item.primaryKey()), (Normalised{false, sent, true})) << sent;
  }
}

TEST(NormalisationRule, GtinInAisIsReportedAtItsIndex) {
  TestItem item(
      {.primaryKey = {"00", "095060000000000015"}, .ais = {{"10", "L1"}, {"01", "123456789"}, {"01", "95012346"}}});
  EXPECT_EQ(item.run("normalisation"), (Errors{error(codes::ai(1), "ais.1", {"01", "gtinLength", "9"})}));
  EXPECT_EQ(stateOf(item.ai(0)), (Normalised{false, "L1", false}));
  EXPECT_EQ(stateOf(item.ai(1)), (Normalised{false, "123456789", true}));
  EXPECT_EQ(stateOf(item.ai(2)), (Normalised{true, "00000095012346", false}));
}

TEST(NormalisationRule, GtinThatIsNotAllDigitsIsLeftToAiFormat) {
  for (const char* sent : {"", "9501234A", "0950600013435x", "12 45678", "-1234567"}) {
    TestItem item({.primaryKey = {"01", sent}});
    EXPECT_EQ(item.run("normalisation"), Errors{}) << sent;
    EXPECT_EQ(stateOf(item.primaryKey()), (Normalised{false, sent, false})) << sent;
  }
}

TEST(NormalisationRule, TemperatureMagnitudeIsPaddedToSixDigits) {
  struct Row {
    const char* key;
    const char* sent;
    const char* expected;
  };
  for (Row row : {Row{"4330", "1", "000001"}, Row{"4330", "123", "000123"}, Row{"4331", "12345", "012345"},
                  Row{"4332", "0", "000000"}, Row{"4333", "123-", "000123-"}, Row{"4330", "12345-", "012345-"},
                  Row{"4331", "0-", "000000-"}}) {
    TestItem item({.primaryKey = {"00", "095060000000000015"}, .ais = {{row.key, row.sent}}});
    EXPECT_EQ(item.run("normalisation"), Errors{}) << row.key << " " << row.sent;
    EXPECT_EQ(stateOf(item.ai(0)), (Normalised{true, row.expected, false})) << row.key << " " << row.sent;
  }
}

TEST(NormalisationRule, TemperatureOfAnotherShapeIsLeftToAiFormat) {
  for (const char* sent : {"", "-", "123456", "123456-", "1234567", "12a", "+12", "12-3", "12--", " 12"}) {
    TestItem item({.primaryKey = {"00", "095060000000000015"}, .ais = {{"4330", sent}}});
    EXPECT_EQ(item.run("normalisation"), Errors{}) << sent;
    EXPECT_EQ(stateOf(item.ai(0)), (Normalised{false, sent, false})) << sent;
  }
}

TEST(NormalisationRule, OtherAisAreUntouched) {
  TestItem item({.primaryKey = {"00", "095060000000000015"},
                 .ais = {{"02", "95012346"}, {"4300", "12"}, {"37", "12"}, {"7777", "12"}}});
  EXPECT_EQ(item.run("normalisation"), Errors{});
  EXPECT_EQ(stateOf(item.primaryKey()), (Normalised{false, "095060000000000015", false}));
  for (std::size_t i = 0; i < 4; ++i) EXPECT_FALSE(item.ai(i).normalised) << i;
}

TEST(NormalisationRule, WithoutAisItSwitchesItselfOffAndSaysWhy) {
  RuleModuleStart off = startModule("normalisation", ModuleSettings{});
  EXPECT_EQ(off.module, nullptr);
  EXPECT_EQ(off.offReason, "no AIs configured (module.normalisation.gtinAis, module.normalisation.temperatureAis)");
  RuleModuleStart blank = startModule("normalisation", ModuleSettings{{"gtinAis", " , "}, {"temperatureAis", ""}});
  EXPECT_EQ(blank.module, nullptr);
  EXPECT_EQ(blank.offReason, off.offReason);
  RuleModuleStart gtinOnly = startModule("normalisation", ModuleSettings{{"gtinAis", "01"}});
  EXPECT_NE(gtinOnly.module, nullptr);
  EXPECT_EQ(gtinOnly.offReason, "");
}

TEST(NormalisationRule, AiListsComeFromTheSettings) {
  ModuleSettings swapped{{"gtinAis", "02"}, {"temperatureAis", "4331"}};
  TestItem item({.primaryKey = {"01", "95012346"}, .ais = {{"02", "95012346"}, {"4330", "12"}, {"4331", "12-"}}});
  EXPECT_EQ(item.run(*makeModule("normalisation", swapped)), Errors{});
  EXPECT_EQ(stateOf(item.primaryKey()), (Normalised{false, "95012346", false}));
  EXPECT_EQ(stateOf(item.ai(0)), (Normalised{true, "00000095012346", false}));
  EXPECT_EQ(stateOf(item.ai(1)), (Normalised{false, "12", false}));
  EXPECT_EQ(stateOf(item.ai(2)), (Normalised{true, "000012-", false}));
}

TEST(NormalisationRule, UnknownAisAreSkippedEvenWhenListed) {
  ModuleSettings listed{{"gtinAis", "7777"}, {"temperatureAis", "7778"}};
  TestItem item({.primaryKey = {"7777", "123"}, .ais = {{"7778", "12"}}});
  EXPECT_EQ(item.run(*makeModule("normalisation", listed)), Errors{});
  EXPECT_FALSE(item.primaryKey().normalised);
  EXPECT_FALSE(item.primaryKey().valueRejected);
  EXPECT_FALSE(item.ai(0).normalised);
}

}  // namespace
}  // namespace codepayload::testing
