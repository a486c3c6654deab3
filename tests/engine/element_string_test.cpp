// Element strings: sequence, escaping of parentheses, HRI, references.
#include <gtest/gtest.h>

#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

TEST(ElementString, PrimaryKeyThenAisInSequenceWithParenthesesEscaped) {
  EXPECT_EQ(runDefinition(
                newestSnapshot(),
                R"J({"primaryKey":{"key":"01","value":"09506000134352"},)J"
                R"J("ais":[{"key":"10","value":"ABC(1)"},{"key":"17","value":"261231"}],"extensionParameters":[]})J"),
            R"J({"codes":[{"reference":"0","barcodeText":"(01)09506000134352(10)ABC^0401^041(17)261231",)J"
            R"J("hri":"(01)09506000134352(10)ABC(1)(17)261231"}],"failures":[]})J");
}

TEST(ElementString, AisKeepTheOrderSent) {
  EXPECT_EQ(runDefinition(newestSnapshot(),
                          R"J({"primaryKey":{"key":"01","value":"09506000134352"},)J"
                          R"J("ais":[{"key":"21","value":"X1"},{"key":"10","value":"L2"}],"extensionParameters":[]})J"),
            R"J({"codes":[{"reference":"0","barcodeText":"(01)09506000134352(21)X1(10)L2",)J"
            R"J("hri":"(01)09506000134352(21)X1(10)L2"}],"failures":[]})J");
}

TEST(ElementString, MadeToOrderGtinIsAPrimaryKeyWithoutAStem) {
  EXPECT_EQ(
      runDefinition(newestSnapshot(),
                    R"J({"primaryKey":{"key":"03","value":"09506000134352"},"ais":[],"extensionParameters":[]})J"),
      R"J({"codes":[{"reference":"0","barcodeText":"(03)09506000134352","hri":"(03)09506000134352"}],"failures":[]})J");
}

TEST(ElementString, SsccWithContentAndCount) {
  EXPECT_EQ(
      runDefinition(
          newestSnapshot(),
          R"J({"primaryKey":{"key":"00","value":"376104250021234569"},)J"
          R"J("ais":[{"key":"02","value":"09506000134352"},{"key":"37","value":"10"}],"extensionParameters":[]})J"),
      R"J({"codes":[{"reference":"0","barcodeText":"(00)376104250021234569(02)09506000134352(37)10",)J"
      R"J("hri":"(00)376104250021234569(02)09506000134352(37)10"}],"failures":[]})J");
}

TEST(References, SuppliedKeptEmptyKeptNullAndMissingBecomePositions) {
  const std::string item = R"J("primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[])J";
  EXPECT_EQ(runRequest(newestSnapshot(), "{\"codes\":[{\"reference\":\"line-7\"," + item + "},{\"reference\":\"\"," +
                                             item + "},{\"reference\":null," + item + "},{" + item + "}]}"),
            R"J({"codes":[)J"
            R"J({"reference":"line-7","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"},)J"
            R"J({"reference":"","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"},)J"
            R"J({"reference":"2","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"},)J"
            R"J({"reference":"3","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"}],"failures":[]})J");
}

TEST(Batches, AcceptedAndRejectedAreSplitAndAllRejectedGivesNoCodes) {
  EXPECT_EQ(
      runRequest(
          newestSnapshot(),
          R"J({"codes":[{"primaryKey":{"key":"01","value":"09506000134353"},"ais":[],"extensionParameters":[]},)J"
          R"J({"reference":"b","primaryKey":{"key":"7777","value":"1"},"ais":[],"extensionParameters":[]}]})J"),
      R"J({"codes":[],"failures":[)J"
      R"J({"reference":"0","errors":[{"code":"Validation.Invalid.primaryKey","path":"primaryKey",)J"
      R"J("args":["01","linter","csum","incorrectCheckDigit","13","1"],)J"
      R"J("message":"AI 01: the check digit '3' (character 14 of '09506000134353') is wrong; the right check digit is 2."}]},)J"
      R"J({"reference":"b","errors":[{"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["7777","unknownAi"],"message":"AI '7777' is not in the GS1 Barcode Syntax Dictionary."}]}]})J");
  EXPECT_EQ(runRequest(newestSnapshot(), R"J({"codes":[]})J"), R"J({"codes":[],"failures":[]})J");
}

}  // namespace
}  // namespace codepayload::testing
