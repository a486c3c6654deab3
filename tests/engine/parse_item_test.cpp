// engine/parse_item.h through PayloadEngine::parseJson: each form read back
// to a definition and written again; the faults of reading, of the pipeline
// and of a Digital Link's placement, each with its place in the data.
#include "engine/parse_item.h"

#include <gtest/gtest.h>

#include "common/utf8.h"
#include "engine/payload_engine.h"
#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

std::string parse(std::string_view body) {
  SnapshotHolder holder(newestSnapshot());
  PayloadEngine engine(holder);
  std::string out;
  RequestError error;
  EXPECT_TRUE(engine.parseJson(body, out, error)) << error.message;
  return out;
}

// One payload; its answer (the whole response).
std::string parseOne(std::string_view data) {
  std::string body = R"J({"codes":[{"data":)J";
  body += '"';
  body += data;
  body += R"J("}]})J";
  return parse(body);
}

constexpr std::string_view kNoStem = R"J("extensionParameters":[],"digitalLinkStem":null,"linkType":null,"context":null})J";

TEST(ParseItem, ADigitalLinkIsReadAndWrittenAgainOnItsStem) {
  EXPECT_EQ(parseOne("https://id.example.com/shop/01/9506000134352/10/AB%2FC?3103=000195&17=261231&linkType=gs1%3Apip"
                     "&shelf=b7&context=dpp"),
            R"J({"parsed":[{"reference":"0","form":"digitalLink","symbologyIdentifier":null,"definition":{)J"
            R"J("primaryKey":{"key":"01","value":"9506000134352"},"ais":[{"key":"10","value":"AB/C"},)J"
            R"J({"key":"3103","value":"000195"},{"key":"17","value":"261231"}],)J"
            R"J("extensionParameters":[{"key":"shelf","value":"b7"}],"digitalLinkStem":"https://id.example.com/shop",)J"
            R"J("linkType":"gs1:pip","context":"dpp"},)J"
            R"J("elementString":"(01)09506000134352(10)AB/C(3103)000195(17)261231",)J"
            R"J("hri":"(01)09506000134352(10)AB/C(3103)000195(17)261231",)J"
            R"J("digitalLink":"https://id.example.com/shop/01/09506000134352/10/AB%2FC?3103=000195&17=261231)J"
            R"J(&shelf=b7&linkType=gs1:pip&context=dpp"}],"failures":[]})J");
}

TEST(ParseItem, AnElementStringKeepsItsEscapesAndHasNoDigitalLink) {
  EXPECT_EQ(parse(R"J({"codes":[{"reference":"es","data":"(01)09506000134352(10)AB^040C^041(17)261231"}]})J"),
            std::string(R"J({"parsed":[{"reference":"es","form":"elementString","symbologyIdentifier":null,)J"
                        R"J("definition":{"primaryKey":{"key":"01","value":"09506000134352"},)J"
                        R"J("ais":[{"key":"10","value":"AB(C)"},{"key":"17","value":"261231"}],)J") +
                std::string(kNoStem) +
                R"J(,"elementString":"(01)09506000134352(10)AB^040C^041(17)261231",)J"
                R"J("hri":"(01)09506000134352(10)AB(C)(17)261231","digitalLink":null}],"failures":[]})J");
}

TEST(ParseItem, ScannerDataWithAnAimIdentifierAndGroupSeparators) {
  EXPECT_EQ(parseOne(R"J(]d201095060001343521726123110ABC\u001d21XYZ)J"),
            std::string(R"J({"parsed":[{"reference":"0","form":"scannerData","symbologyIdentifier":"]d2",)J"
                        R"J("definition":{"primaryKey":{"key":"01","value":"09506000134352"},)J"
                        R"J("ais":[{"key":"17","value":"261231"},{"key":"10","value":"ABC"},)J"
                        R"J({"key":"21","value":"XYZ"}],)J") +
                std::string(kNoStem) +
                R"J(,"elementString":"(01)09506000134352(17)261231(10)ABC(21)XYZ",)J"
                R"J("hri":"(01)09506000134352(17)261231(10)ABC(21)XYZ","digitalLink":null}],"failures":[]})J");
}

TEST(ParseItem, TheFirstPrimaryKeyOfAnElementStringIsItsPrimaryKey) {
  const std::string answer = parseOne("(10)ABC(01)09506000134352");
  EXPECT_NE(answer.find(R"J("primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"10","value":"ABC"}])J"),
            std::string::npos)
      << answer;
  EXPECT_NE(answer.find(R"J("elementString":"(01)09506000134352(10)ABC")J"), std::string::npos) << answer;
}

TEST(ParseItem, ACompressedDigitalLinkHasACodeOfItsOwn) {
  EXPECT_EQ(parseOne("https://id.gs1.org/ARHKVAdpQgTaAAAAAAAA"),
            R"J({"parsed":[],"failures":[{"reference":"0","form":null,"symbologyIdentifier":null,"definition":null,)J"
            R"J("errors":[{"code":"Validation.Invalid.data.compressedDigitalLink","path":"data",)J"
            R"J("args":["ARHKVAdpQgTaAAAAAAAA"],"message":"This is a compressed GS1 Digital Link URI )J"
            R"J(('ARHKVAdpQgTaAAAAAAAA'), which is not read here: scan or send its uncompressed form.",)J"
            R"J("offset":19,"length":20}]}]})J");
}

TEST(ParseItem, AReadingFaultNamesItsReasonAndPlace) {
  EXPECT_EQ(parseOne("(01)09506000134352(99)"),
            R"J({"parsed":[],"failures":[{"reference":"0","form":null,"symbologyIdentifier":null,"definition":null,)J"
            R"J("errors":[{"code":"Validation.Invalid.data","path":"data","args":["emptyValue","99"],)J"
            R"J("message":"AI 99 has no value at character 23.","offset":22,"length":0}]}]})J");
  EXPECT_NE(parseOne("]C1019506000134352").find(R"J("args":["truncated","01"],"message":"The data ends inside the )J"
                                                R"J(value of AI 01, which has a fixed length.","offset":5,"length":13})J"),
            std::string::npos);
  EXPECT_NE(parseOne("]d2").find(R"J("args":["empty"],)J"), std::string::npos);
}

TEST(ParseItem, APipelineFaultPointsAtTheValueInTheData) {
  const std::string answer = parseOne("https://id.gs1.org/01/09506000134353");
  EXPECT_NE(answer.find(R"J("errors":[{"code":"Validation.Invalid.primaryKey","path":"primaryKey",)J"
                        R"J("args":["01","linter","csum","incorrectCheckDigit","13","1"],)J"
                        R"J("message":"AI 01: the check digit '3' (character 14 of '09506000134353') is wrong; the )J"
                        R"J(right check digit is 2.","offset":22,"length":14}])J"),
            std::string::npos)
      << answer;
  // The definition read is shown beside the faults.
  EXPECT_NE(answer.find(R"J("definition":{"primaryKey":{"key":"01","value":"09506000134353"})J"), std::string::npos);
}

TEST(ParseItem, AnElementStringIsJudgedAsPrinted) {
  // /codes pads a short GTIN or temperature of a definition; a symbol must
  // hold the whole value.
  const std::string answer = parseOne("(01)9506000134352(10)A");
  EXPECT_NE(answer.find(R"J("code":"Validation.Invalid.primaryKey","path":"primaryKey",)J"
                        R"J("args":["01","format","N14","tooShort","13"],)J"
                        R"J("message":"AI 01: '9506000134352' is too short for the format N14.","offset":4,"length":13})J"),
            std::string::npos)
      << answer;
  // A Digital Link's path may hold a GTIN-13, as /codes takes it.
  EXPECT_NE(parseOne("https://a.example/01/9506000134352").find(R"J("elementString":"(01)09506000134352")J"),
            std::string::npos);
}

TEST(ParseItem, ADigitalLinkMustPlaceEachAiWhereGs1Does) {
  EXPECT_NE(parseOne("]Q1https://id.gs1.org/01/09506000134352?10=ABC")
                .find(R"J({"code":"Validation.Invalid.ais.0.placement","path":"ais.0","args":["10","qualifierInQuery"],)J"
                      R"J("message":"AI 10 is a key qualifier of the primary key: it belongs in the URI's path, not its )J"
                      R"J(query string.","offset":43,"length":3})J"),
            std::string::npos);
  EXPECT_NE(parseOne("https://id.gs1.org/01/09506000134352/17/261231")
                .find(R"J({"code":"Validation.Invalid.ais.0.placement","path":"ais.0","args":["17","attributeInPath"],)J"
                      R"J("message":"AI 17 is a data attribute: it belongs in the URI's query string, not its path.",)J"
                      R"J("offset":40,"length":6})J"),
            std::string::npos);
  EXPECT_NE(parseOne("https://id.gs1.org/01/09506000134352/21/X/10/Y")
                .find(R"J({"code":"Validation.Invalid.ais.qualifiers.order","path":"ais","args":["01","21","10"],)J"
                      R"J("message":"The key qualifiers 21, 10 of primary key 01 are not in GS1's order: 10, 21.",)J"
                      R"J("offset":null,"length":0})J"),
            std::string::npos);
}

TEST(ParseItem, OffsetsCountCharactersAndADetailIsAWholeCharacter) {
  EXPECT_NE(parseOne("\u00e9(01)").find(R"J("args":["unrecognised","é"])J"), std::string::npos)
      << parseOne("\u00e9(01)");
  const std::string answer = parseOne("https://id.example.com/01/09506000134352?99=\u00e9\u00e9&3103=00019");
  EXPECT_NE(answer.find(R"J("args":["uriSyntax","é"],)J"), std::string::npos) << answer;
  EXPECT_NE(answer.find(R"J("offset":44,"length":1})J"), std::string::npos) << answer;
  // After a two-byte character, the next fault is one character, not two bytes, further on.
  const std::string element = parseOne("(01)09506000134352(10)\u00e9(17)2613");
  EXPECT_NE(element.find(R"J("path":"ais.0",)J"), std::string::npos) << element;
  EXPECT_NE(element.find(R"J("offset":22,"length":1})J"), std::string::npos) << element;
  EXPECT_NE(element.find(R"J("offset":27,"length":4})J"), std::string::npos) << element;
}

TEST(ParseItem, TheAnswerIsUtf8WhateverCharacterTheDataHolds) {
  // A fault at a character of two or three bytes, a fixed-length value that
  // ends in one, and escapes of a broken character: every string of the
  // answer stays UTF-8 (JSON must be).
  for (const std::string_view data :
       {"\u00c4", "]\u00c4", "]d\u00c4", "]d2\u20ac", "]d20109506000134352\u00c4", "]d2010950600013435\u00c4",
        "(01)09506000134352(10)\u00c4", "https://a.example/01/09506000134352/10/\u00c4",
        "https://a.example/01/09506000134352/10/A%C3", "https://a.example/01/09506000134352?linkType=%FF"}) {
    const std::string answer = parseOne(data);
    EXPECT_TRUE(common::isValidUtf8(answer)) << data << ": " << answer;
    EXPECT_NE(answer.find(R"J("failures":[{)J"), std::string::npos) << answer;
  }
}

TEST(ParseItem, TheRequestIsCheckedAsStrictlyAsACodesRequest) {
  SnapshotHolder holder(newestSnapshot());
  PayloadEngine engine(holder, EngineLimits{.maxItems = 2});
  std::string out;
  RequestError error;
  EXPECT_FALSE(engine.parseJson(R"J({"codes":[{"reference":"a"}]})J", out, error));
  EXPECT_EQ(error.kind, RequestError::Kind::MissingField);
  EXPECT_EQ(error.path, "codes.0.data");
  EXPECT_FALSE(engine.parseJson(R"J({"codes":[{"data":"x","primaryKey":{}}]})J", out, error));
  EXPECT_EQ(error.kind, RequestError::Kind::WrongType);
  EXPECT_EQ(error.path, "codes.0.primaryKey");
  EXPECT_FALSE(engine.parseJson(R"J({"codes":[{"data":1}]})J", out, error));
  EXPECT_EQ(error.path, "codes.0.data");
  EXPECT_FALSE(engine.parseJson(R"J({"codes":[{"data":"a"},{"data":"b"},{"data":"c"}]})J", out, error));
  EXPECT_EQ(error.kind, RequestError::Kind::TooManyItems);
  EXPECT_EQ(error.message, "codes: more than 2 payloads in one request");
  EXPECT_TRUE(engine.parseJson(R"J({"codes":[]})J", out, error));
  EXPECT_EQ(out, R"J({"parsed":[],"failures":[]})J");
}

}  // namespace
}  // namespace codepayload::testing
