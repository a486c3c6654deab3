// Primary key acceptance, unknown AIs, repeats, duplicates, formats.
#include <gtest/gtest.h>

#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

std::string item(const std::string& ais) {
  return runDefinition(newestSnapshot(), R"J({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[)J" + ais +
                                             R"J(],"extensionParameters":[]})J");
}

std::string rejected(const std::string& errors) {
  return R"J({"codes":[],"failures":[{"reference":"0","errors":[)J" + errors + "]}]}";
}

TEST(PrimaryKey, UnknownAndNonKeyAis) {
  EXPECT_EQ(
      runDefinition(newestSnapshot(), R"J({"primaryKey":{"key":"1","value":"x"},"ais":[],"extensionParameters":[]})J"),
      rejected(R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["1","unknownAi"]})J"));
  EXPECT_EQ(
      runDefinition(newestSnapshot(),
                    R"J({"primaryKey":{"key":"10","value":"L1"},"ais":[],"extensionParameters":[]})J"),
      rejected(
          R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["10","notPrimaryKey"]},)J"
          R"J({"code":"Validation.Invalid.relations.10.requires","path":"primaryKey","args":["01","02","03","8006","8026"]})J"));
}

TEST(Ais, UnknownRepeatingAndDuplicateKeys) {
  EXPECT_EQ(item(R"J({"key":"7777","value":"1"},{"key":"01","value":"09506000134352"},{"key":"10","value":"A"},)J"
                 R"J({"key":"10","value":"B"})J"),
            rejected(R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["7777","unknownAi"]},)J"
                     R"J({"code":"Validation.Invalid.ais.1","path":"ais.1","args":["01","repeatsPrimaryKey"]},)J"
                     R"J({"code":"Validation.Invalid.ais","path":"ais.3","args":["10","2"]})J"));
}

TEST(Format, CharacterSetLengthsAndLinters) {
  EXPECT_EQ(
      item(R"J({"key":"10","value":"AB CD"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["10","format","X..20","invalidCharacter","2"]})J"));
  EXPECT_EQ(
      item(R"J({"key":"10","value":"ABCDEFGHIJKLMNOPQRSTU"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["10","format","X..20","tooLong","20"]})J"));
  EXPECT_EQ(
      item(R"J({"key":"10","value":""})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["10","format","X..20","tooShort","0"]})J"));
  EXPECT_EQ(
      item(R"J({"key":"17","value":"2612"})J"),
      rejected(R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["17","format","N6","tooShort","4"]})J"));
}

TEST(Format, OptionalComponentsMayBeLeftOut) {
  // 7011: N6,yymmdd [N4],hhmi
  EXPECT_EQ(item(R"J({"key":"7011","value":"261231"})J"),
            R"J({"codes":[{"reference":"0","barcodeText":"(01)09506000134352(7011)261231",)J"
            R"J("hri":"(01)09506000134352(7011)261231"}],"failures":[]})J");
  EXPECT_EQ(
      item(R"J({"key":"7011","value":"2612311"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["7011","format","N6 [N4]","tooShort","7"]})J"));
}

TEST(Format, EveryFaultOfAnItemIsReported) {
  EXPECT_EQ(
      runDefinition(newestSnapshot(), R"J({"primaryKey":{"key":"01","value":"09506000134353"},"linkType":"gs1:pip",)J"
                                      R"J("ais":[{"key":"10","value":"A B"},{"key":"17","value":"26"}],)J"
                                      R"J("extensionParameters":[{"key":"linkType","value":"x"}]})J"),
      rejected(
          R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["01","linter","csum","incorrectCheckDigit","13","1"]},)J"
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["10","format","X..20","invalidCharacter","1"]},)J"
          R"J({"code":"Validation.Invalid.ais.1","path":"ais.1","args":["17","format","N6","tooShort","2"]},)J"
          R"J({"code":"Validation.Invalid.linkType","path":"linkType","args":["gs1:pip","requiresDigitalLinkStem"]},)J"
          R"J({"code":"Validation.Invalid.extensionParameters","path":"extensionParameters","args":["requiresDigitalLinkStem"]},)J"
          R"J({"code":"Validation.Invalid.extensionParameters.0","path":"extensionParameters.0","args":["linkType","reservedKey"]})J"));
}

}  // namespace
}  // namespace codepayload::testing
