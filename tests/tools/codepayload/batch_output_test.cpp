// tools/codepayload/batch_output.h: the engine's answers as CSV, one record
// per item in the request's order, accepted and failed interleaved by the
// engine's verdicts, repeated references included.
#include "tools/codepayload/batch_output.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace codepayload::cli {
namespace {

TEST(CodesResponseToCsv, OneRecordPerItemInTheRequestsOrder) {
  const std::string response =
      R"({"codes":[{"reference":"x","barcodeText":"(01)09506000134352(10)A,B","hri":"(01)09506000134352(10)A,B"},)"
      R"({"reference":"x","barcodeText":"https://id.example.com/01/09506000134352?17=261231",)"
      R"("hri":"(01)09506000134352(17)261231"}],)"
      R"("failures":[{"reference":"x","errors":[{"code":"Validation.Invalid.primaryKey","path":"primaryKey",)"
      R"("args":["01"],"message":"AI 01: the check digit is wrong."},{"code":"Validation.Relation.requires",)"
      R"("path":null,"args":[],"message":"AI 21 needs \"01\"."}]}]})";
  EXPECT_EQ(codesResponseToCsv(response, {true, false, true}),
            "reference,barcodeText,hri,errors\r\n"
            "x,\"(01)09506000134352(10)A,B\",\"(01)09506000134352(10)A,B\",\r\n"
            "x,,,\"Validation.Invalid.primaryKey primaryKey: AI 01: the check digit is wrong. | "
            "Validation.Relation.requires: AI 21 needs \"\"01\"\".\"\r\n"
            "x,https://id.example.com/01/09506000134352?17=261231,(01)09506000134352(17)261231,\r\n");
  EXPECT_EQ(codesResponseToCsv(R"({"codes":[],"failures":[]})", {}), "reference,barcodeText,hri,errors\r\n");
}

TEST(ParseResponseToCsv, TheDefinitionReadIsInGeneratesColumnsAndFailuresKeepWhatWasRead) {
  const std::string response =
      R"({"parsed":[{"reference":"1","form":"scannerData","symbologyIdentifier":"]d2","definition":)"
      R"({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"21","value":"XYZ"}],)"
      R"("extensionParameters":[],"digitalLinkStem":null,"linkType":null,"context":null},)"
      R"("elementString":"(01)09506000134352(21)XYZ","hri":"(01)09506000134352(21)XYZ","digitalLink":null},)"
      R"({"reference":"3","form":"digitalLink","symbologyIdentifier":null,"definition":)"
      R"({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"10","value":"A,B"},)"
      R"({"key":"17","value":"271231"}],"extensionParameters":[{"key":"shelf","value":"b7"}],)"
      R"("digitalLinkStem":"https://id.example.com","linkType":"gs1:pip","context":null},)"
      R"("elementString":"(01)09506000134352(10)A,B(17)271231","hri":"(01)09506000134352(10)A,B(17)271231",)"
      R"("digitalLink":"https://id.example.com/01/09506000134352/10/A%2CB?17=271231&shelf=b7&linkType=gs1:pip"}],)"
      R"("failures":[{"reference":"2","form":null,"symbologyIdentifier":null,"definition":null,)"
      R"("errors":[{"code":"Validation.Invalid.data","path":"data","args":["unrecognised"],)"
      R"("message":"The data is none of the forms.","offset":0,"length":3}]},)"
      R"({"reference":"4","form":"elementString","symbologyIdentifier":null,"definition":)"
      R"({"primaryKey":{"key":"414","value":"9506000134353"},"ais":[{"key":"10","value":"C"}],)"
      R"("extensionParameters":[],"digitalLinkStem":null,"linkType":null,"context":null},)"
      R"("errors":[{"code":"Validation.Invalid.primaryKey","path":"primaryKey","args":[],)"
      R"("message":"AI 414: the check digit is wrong.","offset":5,"length":13}]}]})";
  EXPECT_EQ(parseResponseToCsv(response, {true, false, true, false}),
            "reference,form,symbologyIdentifier,primaryKey,01,21,10,17,414,ext:shelf,digitalLinkStem,linkType,"
            "context,elementString,hri,digitalLink,errors\r\n"
            "1,scannerData,]d2,01,09506000134352,XYZ,,,,,,,,(01)09506000134352(21)XYZ,(01)09506000134352(21)XYZ,,\r\n"
            "2,,,,,,,,,,,,,,,,Validation.Invalid.data data: The data is none of the forms.\r\n"
            "3,digitalLink,,01,09506000134352,,\"A,B\",271231,,b7,https://id.example.com,gs1:pip,,"
            "\"(01)09506000134352(10)A,B(17)271231\",\"(01)09506000134352(10)A,B(17)271231\","
            "https://id.example.com/01/09506000134352/10/A%2CB?17=271231&shelf=b7&linkType=gs1:pip,\r\n"
            "4,elementString,,414,,,C,,9506000134353,,,,,,,,"
            "Validation.Invalid.primaryKey primaryKey: AI 414: the check digit is wrong.\r\n");
  EXPECT_EQ(parseResponseToCsv(R"({"parsed":[],"failures":[]})", {}),
            "reference,form,symbologyIdentifier,primaryKey,digitalLinkStem,linkType,context,elementString,hri,"
            "digitalLink,errors\r\n");
}

TEST(CodesResponseToCsv, VerdictsThatDisagreeWithTheResponseAreAnError) {
  const std::string response = R"({"codes":[{"reference":"0","barcodeText":"a","hri":"a"}],"failures":[]})";
  EXPECT_THROW(codesResponseToCsv(response, {false}), std::runtime_error);
  EXPECT_THROW(codesResponseToCsv(response, {true, true}), std::runtime_error);
}

}  // namespace
}  // namespace codepayload::cli
