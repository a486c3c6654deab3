// The built codepayload executable on the batches of parse and generate:
// payloads one a line and JSON, CSV in and out, --output, the faults of a
// CSV at their line and column, the exit status and the summary line.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "common/csv_text.h"
#include "tests/tools/test_files.h"
#include "tests/tools/test_process.h"
#include "tools/codepayload/csv.h"

namespace codepayload::cli {
namespace {

using codepayload::testing::readFile;
using codepayload::testing::RunResult;
using codepayload::testing::runExecutable;
using codepayload::testing::TempDir;
using codepayload::testing::writeFile;

const std::filesystem::path kExecutable = CODEPAYLOAD_CLI_EXECUTABLE;
const std::filesystem::path kRulesDir = CODEPAYLOAD_TEST_RULES_DIR;

class CodepayloadCli : public ::testing::Test {
 protected:
  // Runs codepayload in the test's folder with `arguments` and the shipped
  // rules, `input` on standard input; the environment is the test's own
  // without CODEPAYLOAD_* (the data folder one that does not exist).
  RunResult run(std::vector<std::string> arguments, const std::string& input = "") {
    arguments.insert(arguments.end(), {"--rules-dir", kRulesDir.string()});
    return runExecutable(kExecutable, std::move(arguments), {"CODEPAYLOAD_DATA_DIR=" + (temp_ / "no-data").string()},
                         temp_.path(), input);
  }

  void write(const std::string& name, const std::string& content) { writeFile(temp_ / name, content); }

  TempDir temp_;
};

// The summary line that ends every answered batch.
void expectSummary(const std::string& err, const std::string& counts) {
  EXPECT_TRUE(std::regex_match(err, std::regex("codepayload: " + counts + " in [0-9]+\\.[0-9]{2} s\n"))) << err;
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

constexpr std::string_view kNoStem =
    R"("extensionParameters":[],"digitalLinkStem":null,"linkType":null,"context":null})";

// What parse answers for scans.txt below, payloads 1, 3 and 4 of its lines.
const std::string kParsedLines =
    std::string(
        R"({"parsed":[{"reference":"1","form":"elementString","symbologyIdentifier":null,)"
        R"("definition":{"primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"10","value":"ABC"}],)") +
    std::string(kNoStem) +
    R"(,"elementString":"(01)09506000134352(10)ABC","hri":"(01)09506000134352(10)ABC","digitalLink":null},)"
    R"({"reference":"3","form":"scannerData","symbologyIdentifier":"]d2",)"
    R"("definition":{"primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"17","value":"261231"},)"
    R"({"key":"10","value":"ABC"},{"key":"21","value":"XYZ"}],)" +
    std::string(kNoStem) +
    R"(,"elementString":"(01)09506000134352(17)261231(10)ABC(21)XYZ",)"
    R"("hri":"(01)09506000134352(17)261231(10)ABC(21)XYZ","digitalLink":null}],)"
    R"("failures":[{"reference":"4","form":"elementString","symbologyIdentifier":null,)"
    R"("definition":{"primaryKey":{"key":"01","value":"09506000134353"},"ais":[],)" +
    std::string(kNoStem) +
    R"(,"errors":[{"code":"Validation.Invalid.primaryKey","path":"primaryKey",)"
    R"("args":["01","linter","csum","incorrectCheckDigit","13","1"],)"
    R"("message":"AI 01: the check digit '3' (character 14 of '09506000134353') is wrong; the right check digit )"
    R"(is 2.","offset":4,"length":14}]}]})"
    "\n";

// CRLF line ends, an empty line (skipped, its number kept), scanner data with
// its GS byte, a wrong check digit.
const std::string kScans =
    "(01)09506000134352(10)ABC\r\n\r\n]d201095060001343521726123110ABC\x1d"
    "21XYZ\r\n(01)09506000134353\r\n";

TEST_F(CodepayloadCli, ParseReadsOnePayloadALineWithTheLineNumberAsReference) {
  write("scans.txt", kScans);
  const RunResult result = run({"parse", "scans.txt"});
  EXPECT_EQ(result.exitCode, 3);
  EXPECT_EQ(result.out, kParsedLines);
  expectSummary(result.err, "2 parsed, 1 failed");

  const RunResult allowed = run({"parse", "--allow-failures"}, kScans);  // standard input
  EXPECT_EQ(allowed.exitCode, 0);
  EXPECT_EQ(allowed.out, kParsedLines);
  expectSummary(allowed.err, "2 parsed, 1 failed");
}

// The lines are the engine's ParseRequest: the same answer byte for byte.
TEST_F(CodepayloadCli, ParseReadsAParseRequestAndAnswersAsTheEngine) {
  const std::string request =
      " \n{\"codes\":[{\"reference\":\"1\",\"data\":\"(01)09506000134352(10)ABC\"},"
      R"({"reference":"3","data":"]d201095060001343521726123110ABC\u001d21XYZ"},)"
      R"({"reference":"4","data":"(01)09506000134353"}]})";
  const RunResult result = run({"parse"}, request);
  EXPECT_EQ(result.exitCode, 3);
  EXPECT_EQ(result.out, kParsedLines);
  expectSummary(result.err, "2 parsed, 1 failed");

  const RunResult link =
      run({"parse", "-"},
          R"({"codes":[{"reference":"a","data":"https://id.example.com/01/09506000134352/10/AB?17=261231"}]})");
  EXPECT_EQ(link.exitCode, 0);
  EXPECT_EQ(link.out,
            R"({"parsed":[{"reference":"a","form":"digitalLink","symbologyIdentifier":null,)"
            R"("definition":{"primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"10","value":"AB"},)"
            R"({"key":"17","value":"261231"}],"extensionParameters":[],"digitalLinkStem":"https://id.example.com",)"
            R"("linkType":null,"context":null},"elementString":"(01)09506000134352(10)AB(17)261231",)"
            R"("hri":"(01)09506000134352(10)AB(17)261231",)"
            R"("digitalLink":"https://id.example.com/01/09506000134352/10/AB?17=261231"}],"failures":[]})"
            "\n");
  expectSummary(link.err, "1 parsed, 0 failed");

  // A body refused as a whole gets the server's envelope.
  const RunResult refused = run({"parse"}, R"({"codes":5})");
  EXPECT_EQ(refused.exitCode, 1);
  EXPECT_EQ(refused.out, "");
  EXPECT_EQ(refused.err, R"({"errors":[{"code":"WrongType","path":"codes","message":"codes: must be an array"}]})"
                         "\n");
}

// The GS byte of scanner data is data: taken as it is from the line.
TEST_F(CodepayloadCli, ParseTakesAGroupSeparatorInALineAsItIs) {
  const RunResult result = run({"parse", "--input-format", "lines", "--output-format", "csv"},
                               "]d2010950600013435210ABC\x1d"
                               "17261231\n");
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.out,
            "reference,form,symbologyIdentifier,primaryKey,01,10,17,digitalLinkStem,linkType,context,elementString,"
            "hri,digitalLink,errors\r\n"
            "1,scannerData,]d2,01,09506000134352,ABC,261231,,,,(01)09506000134352(10)ABC(17)261231,"
            "(01)09506000134352(10)ABC(17)261231,,\r\n");
  expectSummary(result.err, "1 parsed, 0 failed");
}

TEST_F(CodepayloadCli, ParseWritesCsvOneRowPerPayloadInInputOrder) {
  write("scans.csv",
        "reference,data\r\n,(01)1\r\nbox,https://id.example.com/01/09506000134352/10/AB?17=261231\r\n"
        ",\"]d201095060001343521726123110ABC\x1d"
        "21X,Y\"\r\n");
  const RunResult result = run({"parse", "scans.csv", "--output-format", "csv"});
  EXPECT_EQ(result.exitCode, 3);
  EXPECT_EQ(result.out,
            "reference,form,symbologyIdentifier,primaryKey,01,10,17,21,digitalLinkStem,linkType,context,"
            "elementString,hri,digitalLink,errors\r\n"
            "2,elementString,,01,1,,,,,,,,,,Validation.Invalid.primaryKey primaryKey: AI 01: '1' is too short for "
            "the format N14.\r\n"
            "box,digitalLink,,01,09506000134352,AB,261231,,https://id.example.com,,,"
            "(01)09506000134352(10)AB(17)261231,(01)09506000134352(10)AB(17)261231,"
            "https://id.example.com/01/09506000134352/10/AB?17=261231,\r\n"
            "4,scannerData,]d2,01,09506000134352,ABC,261231,\"X,Y\",,,,\"(01)09506000134352(17)261231(10)ABC(21)X,Y\","
            "\"(01)09506000134352(17)261231(10)ABC(21)X,Y\",,\r\n");
  expectSummary(result.err, "2 parsed, 1 failed");
}

// The parse CSV's definition columns are generate's own: without the answer's
// columns, the file is a generate CSV that makes the codes read.
TEST_F(CodepayloadCli, TheParseCsvsDefinitionColumnsAreAGenerateCsv) {
  const RunResult parsed = run({"parse", "--input-format", "lines", "--output-format", "csv"},
                               "https://id.example.com/01/09506000134352/10/AB?17=261231&shelf=b7&linkType=gs1%3Apip\n"
                               "(01)09506000134352(21)X1(3103)000189\n");
  ASSERT_EQ(parsed.exitCode, 0) << parsed.err;
  ASSERT_EQ(parsed.out,
            "reference,form,symbologyIdentifier,primaryKey,01,10,17,21,3103,ext:shelf,digitalLinkStem,linkType,"
            "context,elementString,hri,digitalLink,errors\r\n"
            "1,digitalLink,,01,09506000134352,AB,261231,,,b7,https://id.example.com,gs1:pip,,"
            "(01)09506000134352(10)AB(17)261231,(01)09506000134352(10)AB(17)261231,"
            "https://id.example.com/01/09506000134352/10/AB?17=261231&shelf=b7&linkType=gs1:pip,\r\n"
            "2,elementString,,01,09506000134352,,,X1,000189,,,,,(01)09506000134352(21)X1(3103)000189,"
            "(01)09506000134352(21)X1(3103)000189,,\r\n");
  // Columns 1 and 4 to 13 of each record: the reference and the definition.
  std::string definitions;
  CsvReader reader(parsed.out);
  CsvRecord record;
  while (reader.next(record)) {
    std::vector<std::string_view> fields{record.fields[0]};
    fields.insert(fields.end(), record.fields.begin() + 3, record.fields.begin() + 13);
    common::appendCsvRecord(definitions, fields);
  }
  write("definitions.csv", definitions);
  const RunResult generated = run({"generate", "definitions.csv", "--output-format", "csv"});
  EXPECT_EQ(generated.exitCode, 0) << generated.err;
  EXPECT_EQ(generated.out,
            "reference,barcodeText,hri,errors\r\n"
            "1,https://id.example.com/01/09506000134352/10/AB?17=261231&shelf=b7&linkType=gs1:pip,"
            "(01)09506000134352(10)AB(17)261231,\r\n"
            "2,(01)09506000134352(21)X1(3103)000189,(01)09506000134352(21)X1(3103)000189,\r\n");
}

const std::string kDefinitions =
    "reference,10,01,17,digitalLinkStem,linkType,ext:shelf,context\r\n"
    "box-1,\"AB\"\"C\",09506000134352,261231,,,,\r\n"
    ",\"X,Y\",09506000134352,,https://id.example.com,gs1:pip,b7,dpp\r\n"
    "typo,,09506000134353,,,,,\r\n"
    ",,,,,,,\r\n";

const std::string kTypoErrors =
    R"({"code":"Validation.Invalid.primaryKey","path":"primaryKey",)"
    R"("args":["01","linter","csum","incorrectCheckDigit","13","1"],)"
    R"("message":"AI 01: the check digit '3' (character 14 of '09506000134353') is wrong; the right check digit is 2."})";

TEST_F(CodepayloadCli, GenerateReadsCsvAndWritesTheCodesResponse) {
  write("definitions.csv", kDefinitions);
  const RunResult result = run({"generate", "definitions.csv"});
  EXPECT_EQ(result.exitCode, 3);
  EXPECT_EQ(result.out, R"({"codes":[{"reference":"box-1","barcodeText":"(01)09506000134352(10)AB\"C(17)261231",)"
                        R"("hri":"(01)09506000134352(10)AB\"C(17)261231"},)"
                        R"({"reference":"3","barcodeText":"https://id.example.com/01/09506000134352/10/X%2CY?shelf=b7)"
                        R"(&linkType=gs1:pip&context=dpp","hri":"(01)09506000134352(10)X,Y"}],)"
                        R"("failures":[{"reference":"typo","errors":[)" +
                            kTypoErrors + "]}]}\n");
  expectSummary(result.err, "2 generated, 1 failed");
}

TEST_F(CodepayloadCli, GenerateWritesCsvOneRowPerDefinitionInInputOrder) {
  const std::string expected =
      "reference,barcodeText,hri,errors\r\n"
      "box-1,\"(01)09506000134352(10)AB\"\"C(17)261231\",\"(01)09506000134352(10)AB\"\"C(17)261231\",\r\n"
      "3,https://id.example.com/01/09506000134352/10/X%2CY?shelf=b7&linkType=gs1:pip&context=dpp,"
      "\"(01)09506000134352(10)X,Y\",\r\n"
      "typo,,,Validation.Invalid.primaryKey primaryKey: AI 01: the check digit '3' (character 14 of "
      "'09506000134353') is wrong; the right check digit is 2.\r\n";
  const RunResult result =
      run({"generate", "--input-format", "csv", "--output-format", "csv", "--allow-failures"}, kDefinitions);
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.out, expected);
  expectSummary(result.err, "2 generated, 1 failed");

  // JSON in, CSV out: the failure keeps its place between the two codes.
  const std::string good = R"({"reference":"a","primaryKey":{"key":"01","value":"09506000134352"},"ais":[],)"
                           R"("extensionParameters":[]})";
  const std::string typo = R"({"reference":"b","primaryKey":{"key":"01","value":"09506000134353"},"ais":[],)"
                           R"("extensionParameters":[]})";
  const RunResult mixed =
      run({"generate", "--output-format", "csv"}, R"({"codes":[)" + good + "," + typo + "," + good + "]}");
  EXPECT_EQ(mixed.exitCode, 3);
  EXPECT_EQ(mixed.out,
            "reference,barcodeText,hri,errors\r\n"
            "a,(01)09506000134352,(01)09506000134352,\r\n"
            "b,,,Validation.Invalid.primaryKey primaryKey: AI 01: the check digit '3' (character 14 of "
            "'09506000134353') is wrong; the right check digit is 2.\r\n"
            "a,(01)09506000134352,(01)09506000134352,\r\n");
}

// A CSV that cannot be read is refused whole, at its line and column, and
// nothing is written: not to standard output, not to --output.
TEST_F(CodepayloadCli, ABadCsvRecordIsRefusedAtItsLineAndColumnAndNothingIsWritten) {
  write("answer.json", "before");
  for (const auto& [csv, message] : std::vector<std::pair<std::string, std::string>>{
           {"reference,01\r\na,09506000134352\r\nb,\"0950600013435\r\n",
            "line 3, column 2: the quoted field that starts here is not closed"},
           {"reference,01\r\na,09506000134352,x\r\n", "line 2, column 3: 3 fields where the header has 2"},
           {"reference,01,linktype\r\na,09506000134352,gs1:pip\r\n",
            R"(line 1, column 3: unknown column "linktype" (did you mean "linkType"?))"},
           {"reference,01,10,01\r\n", R"(line 1, column 4: column "01" repeats column 2)"}}) {
    SCOPED_TRACE(csv);
    write("bad.csv", csv);
    const RunResult result = run({"generate", "bad.csv", "--output", "answer.json"});
    EXPECT_EQ(result.exitCode, 1);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err, "codepayload: bad.csv: " + message + "\n");
    EXPECT_EQ(readFile(temp_ / "answer.json"), "before");
  }
  const RunResult piped = run({"parse", "--input-format", "csv"}, "data,reference\r\n\"(01)\"1,a\r\n");
  EXPECT_EQ(piped.exitCode, 1);
  EXPECT_EQ(piped.out, "");
  EXPECT_EQ(piped.err,
            "codepayload: standard input: line 2, column 1: text after the closing quote of a quoted field\n");
  const RunResult notUtf8 = run({"parse"}, "(01)09506000134352\n(10)\xFF\n");
  EXPECT_EQ(notUtf8.exitCode, 1);
  EXPECT_EQ(notUtf8.out, "");
  EXPECT_EQ(notUtf8.err, "codepayload: standard input: line 2, column 5: not valid UTF-8\n");
}

TEST_F(CodepayloadCli, OutputWritesTheFileAndNothingToStandardOutput) {
  write("scans.txt", kScans);
  const RunResult json = run({"parse", "scans.txt", "--output", "answer.json"});
  EXPECT_EQ(json.exitCode, 3);
  EXPECT_EQ(json.out, "");
  expectSummary(json.err, "2 parsed, 1 failed");
  EXPECT_EQ(readFile(temp_ / "answer.json"), kParsedLines);

  // A name ending in .csv asks for CSV; the file is replaced.
  write("answer.csv", "old");
  const RunResult csv = run({"parse", "scans.txt", "--output", "answer.csv"});
  EXPECT_EQ(csv.exitCode, 3);
  EXPECT_EQ(csv.out, "");
  EXPECT_EQ(firstLine(readFile(temp_ / "answer.csv")),
            "reference,form,symbologyIdentifier,primaryKey,01,10,17,21,digitalLinkStem,linkType,context,"
            "elementString,hri,digitalLink,errors\r");
  // --output-format wins over the name.
  const RunResult named = run({"parse", "scans.txt", "--output", "answer.csv", "--output-format", "json"});
  EXPECT_EQ(named.exitCode, 3);
  EXPECT_EQ(readFile(temp_ / "answer.csv"), kParsedLines);

  // A refused body leaves the file as it was.
  const RunResult refused = run({"parse", "--output", "answer.json"}, R"({"codes":)");
  EXPECT_EQ(refused.exitCode, 1);
  EXPECT_EQ(refused.err, R"({"errors":[{"code":"InvalidJson","path":null,)"
                         R"("message":"the body: not valid JSON at line 1, column 10: expected a value"}]})"
                         "\n");
  EXPECT_EQ(readFile(temp_ / "answer.json"), kParsedLines);

  // A folder that does not exist: exit 1, named.
  const RunResult nowhere = run({"parse", "scans.txt", "--output", "no-folder/answer.json"});
  EXPECT_EQ(nowhere.exitCode, 1);
  EXPECT_EQ(nowhere.out, "");
  EXPECT_EQ(nowhere.err.substr(0, nowhere.err.find('(')), "codepayload: no-folder/answer.json: cannot be written ");
  EXPECT_FALSE(std::filesystem::exists(temp_ / "no-folder"));
}

TEST_F(CodepayloadCli, FormatsThatDoNotFitTheCommandAreUsageErrors) {
  for (const auto& [arguments, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"generate", "--input-format", "lines"}, "codepayload: --input-format is json or csv"},
           {{"parse", "--input-format", "xml"}, "codepayload: --input-format is json, csv or lines"},
           {{"parse", "--output-format", "tsv"}, "codepayload: --output-format is json or csv"},
           {{"modules", "--output", "x.json"}, "codepayload: --output is for generate and parse"},
           {{"modules", "--allow-failures"}, "codepayload: --allow-failures is for generate and parse"},
           {{"modules", "--pretty"}, "codepayload: --pretty is for generate and parse"},
           {{"parse", "--pretty", "--output-format", "csv"}, "codepayload: --pretty is for JSON output"},
           {{"generate", "--pretty", "--output", "codes.csv"}, "codepayload: --pretty is for JSON output"}}) {
    SCOPED_TRACE(message);
    const RunResult result = run(arguments);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(firstLine(result.err), message);
  }
}

TEST_F(CodepayloadCli, PrettyIndentsTheAnswerForAPerson) {
  const RunResult result = run({"parse", "--pretty"}, "(01)09506000134352(10)AB\"C\n(01)09506000134353\n");
  EXPECT_EQ(result.exitCode, 3);
  EXPECT_EQ(result.out,
            "{\n"
            "  \"parsed\": [\n"
            "    {\n"
            "      \"reference\": \"1\",\n"
            "      \"form\": \"elementString\",\n"
            "      \"symbologyIdentifier\": null,\n"
            "      \"definition\": {\n"
            "        \"primaryKey\": {\n"
            "          \"key\": \"01\",\n"
            "          \"value\": \"09506000134352\"\n"
            "        },\n"
            "        \"ais\": [\n"
            "          {\n"
            "            \"key\": \"10\",\n"
            "            \"value\": \"AB\\\"C\"\n"
            "          }\n"
            "        ],\n"
            "        \"extensionParameters\": [],\n"
            "        \"digitalLinkStem\": null,\n"
            "        \"linkType\": null,\n"
            "        \"context\": null\n"
            "      },\n"
            "      \"elementString\": \"(01)09506000134352(10)AB\\\"C\",\n"
            "      \"hri\": \"(01)09506000134352(10)AB\\\"C\",\n"
            "      \"digitalLink\": null\n"
            "    }\n"
            "  ],\n"
            "  \"failures\": [\n"
            "    {\n"
            "      \"reference\": \"2\",\n"
            "      \"form\": \"elementString\",\n"
            "      \"symbologyIdentifier\": null,\n"
            "      \"definition\": {\n"
            "        \"primaryKey\": {\n"
            "          \"key\": \"01\",\n"
            "          \"value\": \"09506000134353\"\n"
            "        },\n"
            "        \"ais\": [],\n"
            "        \"extensionParameters\": [],\n"
            "        \"digitalLinkStem\": null,\n"
            "        \"linkType\": null,\n"
            "        \"context\": null\n"
            "      },\n"
            "      \"errors\": [\n"
            "        {\n"
            "          \"code\": \"Validation.Invalid.primaryKey\",\n"
            "          \"path\": \"primaryKey\",\n"
            "          \"args\": [\n"
            "            \"01\",\n"
            "            \"linter\",\n"
            "            \"csum\",\n"
            "            \"incorrectCheckDigit\",\n"
            "            \"13\",\n"
            "            \"1\"\n"
            "          ],\n"
            "          \"message\": \"AI 01: the check digit '3' (character 14 of '09506000134353') is wrong; the right "
            "check digit is 2.\",\n"
            "          \"offset\": 4,\n"
            "          \"length\": 14\n"
            "        }\n"
            "      ]\n"
            "    }\n"
            "  ]\n"
            "}\n");
  expectSummary(result.err, "1 parsed, 1 failed");
}

TEST_F(CodepayloadCli, HelpSaysWhatTheCommandIsForAndShowsExamples) {
  const RunResult result = run({"--help"});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(firstLine(result.out),
            "usage: codepayload generate [FILE] [--input-format json|csv] [--output-format json|csv] [--output FILE]");
  EXPECT_NE(result.out.find("78 settings refused.\n\ncodepayload: the service's payload engine and rules, offline. "
                            "generate turns GS1 code definitions\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("Examples:\n  codepayload generate examples/batch.json --pretty\n"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("FILE is standard input when absent or -."), std::string::npos) << result.out;
}

}  // namespace
}  // namespace codepayload::cli
