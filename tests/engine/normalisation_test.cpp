// GTIN normalisation to 14 digits and temperature padding.
#include <gtest/gtest.h>

#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

std::string gtin(const std::string& value) {
  return runDefinition(newestSnapshot(), R"J({"primaryKey":{"key":"01","value":")J" + value +
                                             R"J("},"ais":[],"extensionParameters":[]})J");
}

std::string accepted(const std::string& text, const std::string& hri) {
  return R"J({"codes":[{"reference":"0","barcodeText":")J" + text + R"J(","hri":")J" + hri + R"J("}],"failures":[]})J";
}

std::string rejected(const std::string& errors) {
  return R"J({"codes":[],"failures":[{"reference":"0","errors":[)J" + errors + "]}]}";
}

TEST(GtinNormalisation, EightTwelveThirteenAndFourteenDigits) {
  EXPECT_EQ(gtin("95050003"), accepted("(01)00000095050003", "(01)00000095050003"));
  EXPECT_EQ(gtin("614141000036"), accepted("(01)00614141000036", "(01)00614141000036"));
  EXPECT_EQ(gtin("9506000134352"), accepted("(01)09506000134352", "(01)09506000134352"));
  EXPECT_EQ(gtin("09506000134352"), accepted("(01)09506000134352", "(01)09506000134352"));
}

TEST(GtinNormalisation, CheckDigitVerifiedAfterPadding) {
  // The offset counts in the 13 digits as sent, not in the 14 after padding.
  EXPECT_EQ(gtin("9506000134353"),
            rejected(R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey",)J"
                     R"J("args":["01","linter","csum","incorrectCheckDigit","12","1"],)J"
                     R"J("message":"AI 01: the check digit '3' (character 13 of '9506000134353') is wrong; )J"
                     R"J(the right check digit is 2."})J"));
}

TEST(GtinNormalisation, OtherLengthsOfDigitsAreRefusedOnce) {
  EXPECT_EQ(gtin("0950600013435"),
            rejected(R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey",)J"
                     R"J("args":["01","linter","csum","incorrectCheckDigit","12","1"],)J"
                     R"J("message":"AI 01: the check digit '5' (character 13 of '0950600013435') is wrong; )J"
                     R"J(the right check digit is 9."})J"));
  EXPECT_EQ(
      gtin("1234567890"),
      rejected(
          R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["01","gtinLength","10"],"message":"AI 01: a GTIN has 8, 12, 13 or 14 digits, not 10."})J"));
  EXPECT_EQ(
      gtin("095060001343521"),
      rejected(
          R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["01","gtinLength","15"],"message":"AI 01: a GTIN has 8, 12, 13 or 14 digits, not 15."})J"));
}

TEST(GtinNormalisation, NonDigitsAreAFormatFault) {
  EXPECT_EQ(
      gtin("0950600013435A"),
      rejected(R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey",)J"
               R"J("args":["01","format","N14","invalidCharacter","13"],)J"
               R"J("message":"AI 01: 'A' at character 14 of '0950600013435A' is not allowed by the format N14."})J"));
}

std::string temperature(const std::string& ai, const std::string& value) {
  return runDefinition(newestSnapshot(),
                       R"J({"primaryKey":{"key":"00","value":"376104250021234569"},"ais":[{"key":")J" + ai +
                           R"J(","value":")J" + value + R"J("}],"extensionParameters":[]})J");
}

TEST(TemperatureNormalisation, MagnitudePaddedToSixDigitsTrailingMinusKept) {
  EXPECT_EQ(temperature("4330", "123-"),
            accepted("(00)376104250021234569(4330)000123-", "(00)376104250021234569(4330)000123-"));
  EXPECT_EQ(temperature("4331", "7"),
            accepted("(00)376104250021234569(4331)000007", "(00)376104250021234569(4331)000007"));
  EXPECT_EQ(temperature("4332", "002500"),
            accepted("(00)376104250021234569(4332)002500", "(00)376104250021234569(4332)002500"));
  EXPECT_EQ(temperature("4333", "999999-"),
            accepted("(00)376104250021234569(4333)999999-", "(00)376104250021234569(4333)999999-"));
}

TEST(TemperatureNormalisation, LeadingMinusAndLongMagnitudesAreFormatFaults) {
  EXPECT_EQ(
      temperature("4330", "-12"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["4330","format","N6 [X1]","tooShort","3"],"message":"AI 4330: '-12' is too short for the format N6 [X1]."})J"));
  EXPECT_EQ(
      temperature("4330", "1234567"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["4330","linter","hyphen","notHyphen","6","1"],"message":"AI 4330: '7' (character 7 of '1234567') must be a hyphen (-)."})J"));
}

}  // namespace
}  // namespace codepayload::testing
