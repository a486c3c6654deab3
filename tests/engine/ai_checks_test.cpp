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
      rejected(
          R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["1","unknownAi"],"message":"AI '1' is not in the GS1 Barcode Syntax Dictionary; did you mean 01?"})J"));
  EXPECT_EQ(
      runDefinition(newestSnapshot(),
                    R"J({"primaryKey":{"key":"10","value":"L1"},"ais":[],"extensionParameters":[]})J"),
      rejected(
          R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["10","notPrimaryKey"],"message":"AI 10 cannot be the primary key: use a GS1 identification key (such as 01, the GTIN) as primaryKey and give AI 10 in ais."},)J"
          R"J({"code":"Validation.Invalid.relations.10.requires","path":"primaryKey","args":["01","02","03","8006","8026"],"message":"AI 10 needs one of 01, 02, 03, 8006 or 8026 in the same code."})J"));
}

TEST(Ais, UnknownRepeatingAndDuplicateKeys) {
  EXPECT_EQ(
      item(R"J({"key":"7777","value":"1"},{"key":"01","value":"09506000134352"},{"key":"10","value":"A"},)J"
           R"J({"key":"10","value":"B"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["7777","unknownAi"],"message":"AI '7777' is not in the GS1 Barcode Syntax Dictionary."},)J"
          R"J({"code":"Validation.Invalid.ais.1","path":"ais.1","args":["01","repeatsPrimaryKey"],"message":"AI 01 is already the primary key; give it only once."},)J"
          R"J({"code":"Validation.Invalid.ais","path":"ais.3","args":["10","2"],"message":"AI 10 is given more than once (first as ais.2); give each AI once."})J"));
}

TEST(Format, CharacterSetLengthsAndLinters) {
  EXPECT_EQ(
      item(R"J({"key":"10","value":"AB CD"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["10","format","X..20","invalidCharacter","2"],"message":"AI 10: ' ' at character 3 of 'AB CD' is not allowed by the format X..20."})J"));
  EXPECT_EQ(
      item(R"J({"key":"10","value":"ABCDEFGHIJKLMNOPQRSTU"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["10","format","X..20","tooLong","20"],"message":"AI 10: 'ABCDEFGHIJKLMNOPQRSTU' is too long for the format X..20; character 21 and those after it are extra."})J"));
  EXPECT_EQ(
      item(R"J({"key":"10","value":""})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["10","format","X..20","tooShort","0"],"message":"AI 10: the empty value is too short for the format X..20."})J"));
  EXPECT_EQ(
      item(R"J({"key":"17","value":"2612"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["17","format","N6","tooShort","4"],"message":"AI 17: '2612' is too short for the format N6."})J"));
}

TEST(Format, OptionalComponentsMayBeLeftOut) {
  // 7011: N6,yymmdd [N4],hhmi
  EXPECT_EQ(item(R"J({"key":"7011","value":"261231"})J"),
            R"J({"codes":[{"reference":"0","barcodeText":"(01)09506000134352(7011)261231",)J"
            R"J("hri":"(01)09506000134352(7011)261231"}],"failures":[]})J");
  EXPECT_EQ(
      item(R"J({"key":"7011","value":"2612311"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["7011","format","N6 [N4]","tooShort","7"],"message":"AI 7011: '2612311' is too short for the format N6 [N4]."})J"));
}

TEST(Format, EveryFaultOfAnItemIsReported) {
  EXPECT_EQ(
      runDefinition(newestSnapshot(), R"J({"primaryKey":{"key":"01","value":"09506000134353"},"linkType":"gs1:pip",)J"
                                      R"J("ais":[{"key":"10","value":"A B"},{"key":"17","value":"26"}],)J"
                                      R"J("extensionParameters":[{"key":"linkType","value":"x"}]})J"),
      rejected(
          R"J({"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":["01","linter","csum","incorrectCheckDigit","13","1"],"message":"AI 01: the check digit '3' (character 14 of '09506000134353') is wrong; the right check digit is 2."},)J"
          R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["10","format","X..20","invalidCharacter","1"],"message":"AI 10: ' ' at character 2 of 'A B' is not allowed by the format X..20."},)J"
          R"J({"code":"Validation.Invalid.ais.1","path":"ais.1","args":["17","format","N6","tooShort","2"],"message":"AI 17: '26' is too short for the format N6."},)J"
          R"J({"code":"Validation.Invalid.linkType","path":"linkType","args":["gs1:pip","requiresDigitalLinkStem"],"message":"linkType is part of a Digital Link URI: give a digitalLinkStem or leave linkType out."},)J"
          R"J({"code":"Validation.Invalid.extensionParameters","path":"extensionParameters","args":["requiresDigitalLinkStem"],"message":"Extension parameters are part of a Digital Link URI: give a digitalLinkStem or leave them out."},)J"
          R"J({"code":"Validation.Invalid.extensionParameters.0","path":"extensionParameters.0","args":["linkType","reservedKey"],"message":"'linkType' cannot be an extension parameter key: linkType and context have fields of their own."})J"));
}

}  // namespace
}  // namespace codepayload::testing
