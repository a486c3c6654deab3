// tools/codepayload/batch_input.h: payloads one a line and CSV batches built
// into the engine's JSON bodies, exactly; every fault that leaves no body at
// its line and column.
#include "tools/codepayload/batch_input.h"

#include <gtest/gtest.h>

namespace codepayload::cli {
namespace {

// The Digital Link primary keys among the AIs these tests use.
bool isPrimaryKey(std::string_view ai) { return ai == "01" || ai == "00" || ai == "414"; }

template <typename Build>
std::string faultOf(const Build& build) {
  try {
    build();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

std::string codesFaultOf(std::string_view csv) {
  return faultOf([csv] { codesRequestFromCsv(csv, isPrimaryKey); });
}

TEST(DetectParseInput, JsonStartsWithABraceAnythingElseIsLines) {
  EXPECT_EQ(detectParseInput(R"({"codes":[]})"), InputFormat::Json);
  EXPECT_EQ(detectParseInput("\xEF\xBB\xBF \r\n\t{\"codes\":[]}"), InputFormat::Json);
  EXPECT_EQ(detectParseInput("(01)09506000134352\n"), InputFormat::Lines);
  EXPECT_EQ(detectParseInput("  ]d2010950600013435\n"), InputFormat::Lines);
  EXPECT_EQ(detectParseInput(""), InputFormat::Lines);
}

TEST(ParseRequestFromLines, TheLineNumberIsTheReferenceAndEmptyLinesAreSkipped) {
  EXPECT_EQ(parseRequestFromLines("(01)09506000134352\r\n\r\n]d2010950600013435217261231\x1d"
                                  "10AB\n\n  \nlast"),
            R"({"codes":[{"reference":"1","data":"(01)09506000134352"},)"
            R"({"reference":"3","data":"]d2010950600013435217261231\u001d10AB"},)"
            R"({"reference":"5","data":"  "},{"reference":"6","data":"last"}]})");
  EXPECT_EQ(parseRequestFromLines(""), R"({"codes":[]})");
  EXPECT_EQ(parseRequestFromLines("\n\r\n"), R"({"codes":[]})");
  // JSON's specials are escaped; a byte order mark is no payload.
  EXPECT_EQ(parseRequestFromLines("\xEF\xBB\xBF"
                                  "a\"b\\c\td\n"),
            R"({"codes":[{"reference":"1","data":"a\"b\\c\td"}]})");
}

TEST(ParseRequestFromLines, TextThatIsNotUtf8IsRefusedAtItsCharacter) {
  EXPECT_EQ(faultOf([] { parseRequestFromLines("ok\n(10)\xC3\xA9\xFF\n"); }), "line 2, column 6: not valid UTF-8");
}

TEST(ParseRequestFromCsv, DataAndAnOptionalReferenceInAnyOrder) {
  EXPECT_EQ(parseRequestFromCsv("data,reference\r\n(01)09506000134352,a\r\n\"(10)A,B\",\r\n,,\r\n\"\"\"\",q\r\n"),
            R"({"codes":[{"reference":"a","data":"(01)09506000134352"},{"reference":"3","data":"(10)A,B"},)"
            R"({"reference":"q","data":"\""}]})");
  EXPECT_EQ(parseRequestFromCsv("data\n(01)09506000134352\n\nx\n"),
            R"({"codes":[{"reference":"2","data":"(01)09506000134352"},{"reference":"4","data":"x"}]})");
  // A reference with an empty data cell is an item (the engine reports it).
  EXPECT_EQ(parseRequestFromCsv("reference,data\nr,\n"), R"({"codes":[{"reference":"r","data":""}]})");
}

TEST(ParseRequestFromCsv, RefusesAHeaderWithoutDataAndUnknownOrRepeatedColumns) {
  EXPECT_EQ(faultOf([] { parseRequestFromCsv(""); }), "line 1: no header row (the first row names the columns)");
  EXPECT_EQ(faultOf([] { parseRequestFromCsv("reference\nx\n"); }),
            "line 1: no data column (the columns: reference, data)");
  EXPECT_EQ(faultOf([] { parseRequestFromCsv("reference,date\nx,y\n"); }),
            R"(line 1, column 2: unknown column "date" (did you mean "data"?))");
  EXPECT_EQ(faultOf([] { parseRequestFromCsv("data,payload\nx,y\n"); }),
            R"(line 1, column 2: unknown column "payload" (the columns: reference, data))");
  EXPECT_EQ(faultOf([] { parseRequestFromCsv("data,reference,data\nx,y,z\n"); }),
            R"(line 1, column 3: column "data" repeats column 1)");
  EXPECT_EQ(faultOf([] { parseRequestFromCsv("data,\nx,y\n"); }), "line 1, column 2: a column without a name");
}

TEST(CodesRequestFromCsv, EveryFieldOfADefinitionHasItsColumn) {
  EXPECT_EQ(codesRequestFromCsv("reference,primaryKey,01,10,17,ext:shelf,ext:aisle,digitalLinkStem,linkType,context\r\n"
                                "box-1,01,09506000134352,AB,261231,b7,,https://id.example.com,gs1:pip,dpp\r\n",
                                isPrimaryKey),
            R"({"codes":[{"reference":"box-1","primaryKey":{"key":"01","value":"09506000134352"},)"
            R"("ais":[{"key":"10","value":"AB"},{"key":"17","value":"261231"}],)"
            R"("extensionParameters":[{"key":"shelf","value":"b7"}],"digitalLinkStem":"https://id.example.com",)"
            R"("linkType":"gs1:pip","context":"dpp"}]})");
}

TEST(CodesRequestFromCsv, EmptyCellsAreFieldsNotGivenAndAnEmptyReferenceIsTheLine) {
  EXPECT_EQ(
      codesRequestFromCsv("01,reference,21\n09506000134352,,\n,,\n09506000134352,\"\",\"x,\"\"y\"\"\"\n", isPrimaryKey),
      R"({"codes":[{"reference":"2","primaryKey":{"key":"01","value":"09506000134352"},"ais":[],)"
      R"("extensionParameters":[]},)"
      R"({"reference":"4","primaryKey":{"key":"01","value":"09506000134352"},)"
      R"("ais":[{"key":"21","value":"x,\"y\""}],"extensionParameters":[]}]})");
}

TEST(CodesRequestFromCsv, ThePrimaryKeyIsTheNamedAiElseTheFirstDigitalLinkPrimaryKeyElseTheFirstAi) {
  const std::string_view csv =
      "primaryKey,10,01,00,03\n"
      ",ABC,09506000134352,,\n"                   // 01, the first primary key, though 10 comes first
      "00,,09506000134352,106141412345678908,\n"  // named
      ",ABC,,,09506000134352\n";                  // no Digital Link primary key: the first AI
  EXPECT_EQ(codesRequestFromCsv(csv, isPrimaryKey),
            R"({"codes":[{"reference":"2","primaryKey":{"key":"01","value":"09506000134352"},)"
            R"("ais":[{"key":"10","value":"ABC"}],"extensionParameters":[]},)"
            R"({"reference":"3","primaryKey":{"key":"00","value":"106141412345678908"},)"
            R"("ais":[{"key":"01","value":"09506000134352"}],"extensionParameters":[]},)"
            R"({"reference":"4","primaryKey":{"key":"10","value":"ABC"},)"
            R"("ais":[{"key":"03","value":"09506000134352"}],"extensionParameters":[]}]})");
}

TEST(CodesRequestFromCsv, ARowWithoutItsPrimaryKeyIsRefused) {
  EXPECT_EQ(codesFaultOf("reference,primaryKey,01,10\nx,,,\n"),
            "line 2: no AI in this row (a row needs at least its primary key)");
  EXPECT_EQ(codesFaultOf("primaryKey,01,10\n21,09506000134352,\n"),
            R"(line 2, column 1: primaryKey "21" names no AI column)");
  EXPECT_EQ(codesFaultOf("01,10,primaryKey\n09506000134352,,10\n"),
            R"(line 2, column 3: primaryKey "10" names an empty cell (column 2))");
}

TEST(CodesRequestFromCsv, MalformedRecordsAndBadHeadersAreRefusedAtTheirLineAndColumn) {
  EXPECT_EQ(codesFaultOf("reference,01\r\na,09506000134352\r\nb,\"0950600013435\r\n"),
            "line 3, column 2: the quoted field that starts here is not closed");
  EXPECT_EQ(codesFaultOf("reference,01\na,09506000134352,x\n"), "line 2, column 3: 3 fields where the header has 2");
  EXPECT_EQ(codesFaultOf("reference,01,10\na,09506000134352\n"), "line 2, column 3: 2 fields where the header has 3");
  EXPECT_EQ(codesFaultOf("reference,01\n\"two\nlines\",09506000134352,x\n"),
            "line 2, column 3: 3 fields where the header has 2");
  EXPECT_EQ(codesFaultOf("reference,01,linktype\na,1,b\n"),
            R"(line 1, column 3: unknown column "linktype" (did you mean "linkType"?))");
  EXPECT_EQ(codesFaultOf("reference,01,gtin\na,1,b\n"),
            R"(line 1, column 3: unknown column "gtin" (the columns: reference, primaryKey, digitalLinkStem, )"
            R"(linkType, context, an AI's number such as 01, ext:<key>))");
  EXPECT_EQ(codesFaultOf("reference,1\na,9506000134352\n"),
            R"(line 1, column 2: unknown column "1" (an AI's column is named by its 2 to 4 digits, as 01; was a )"
            R"(leading 0 lost?))");
  EXPECT_EQ(codesFaultOf("01,10,ext:a,10\n1,2,3,4\n"), R"(line 1, column 4: column "10" repeats column 2)");
  EXPECT_EQ(codesFaultOf("reference,digitalLinkStem\na,b\n"),
            "line 1: no AI column (name an AI's column by its number, as 01)");
  EXPECT_EQ(codesFaultOf("01,10\n09506000134352,\xC3\n"), "line 2, column 2: not valid UTF-8");
}

}  // namespace
}  // namespace codepayload::cli
