// The baseline: the shipped file is exactly what the tool writes for the
// newest release, reads back as that release, and its reader is strict.
#include <gtest/gtest.h>

#include "db/import/baseline_format.h"
#include "db/import/field_escape.h"
#include "db/import/rule_import.h"
#include "db/rule_store.h"
#include "plugins/builtin_plugins.h"
#include "tests/tools/test_files.h"

namespace codepayload::importer {
namespace {

using codepayload::testing::linkTypesFile;
using codepayload::testing::listFolder;
using codepayload::testing::readFile;
using codepayload::testing::releaseFile;
using codepayload::testing::TempDir;
using codepayload::testing::writeFile;

const std::filesystem::path kRulesDir = CODEPAYLOAD_TEST_RULES_DIR;
const std::filesystem::path kSchemaDir = CODEPAYLOAD_TEST_SCHEMA_DIR;
constexpr const char* kNewestRelease = "2026-01-27";

TEST(BaselineTest, TheShippedBaselineIsAFreshWriteOfTheNewestRelease) {
  TempDir temp;
  const ImportSummary summary = writeBaseline(releaseFile(kNewestRelease), linkTypesFile(), temp / "fresh.baseline",
                                              builtinLinterCatalog(kRulesDir));
  EXPECT_EQ(summary, (ImportSummary{kNewestRelease, 541, 60, temp / "fresh.baseline"}));
  EXPECT_EQ(readFile(temp / "fresh.baseline"), readFile(baselinePath(kRulesDir)))
      << "rules/baseline is stale: regenerate it with the command in its header";
}

TEST(BaselineTest, TheShippedBaselineReadsAsTheNewestRelease) {
  EXPECT_EQ(baselinePath(kRulesDir), kRulesDir / "baseline/dictionary.baseline");
  EXPECT_EQ(loadBaseline(baselinePath(kRulesDir), builtinLinterCatalog(kRulesDir)),
            loadRelease(releaseFile(kNewestRelease), linkTypesFile(), builtinLinterCatalog(kRulesDir)));
}

TEST(BaselineTest, HeaderNamesSourcesAndTheRegenerateCommand) {
  const std::string text = readFile(baselinePath(kRulesDir));
  const std::string release = readFile(releaseFile(kNewestRelease));
  const Dictionary dictionary =
      loadRelease(releaseFile(kNewestRelease), linkTypesFile(), builtinLinterCatalog(kRulesDir));
  const std::string expected =
      "# codepayload rule baseline, format 1\n"
      "# release: 2026-01-27\n"
      "# dictionary: gs1-syntax-dictionary-2026-01-27.txt sha256:" +
      dictionary.release.sha256 +
      "\n"
      "# link types: link-types.json sha256:" +
      dictionary.release.linkTypesSha256 +
      "\n"
      "# regenerate: codepayload-import --write-baseline rules/baseline/dictionary.baseline "
      "--link-types ../shared/gs1/link-types.json ../shared/gs1/gs1-syntax-dictionary-2026-01-27.txt\n";
  EXPECT_EQ(text.substr(0, expected.size()), expected);
  EXPECT_NE(text.find("\nai\t01\t*?\tN14,csum,gcppos2\tex=255,37 dlpkey=22,10,21|235\tGTIN\n"), std::string::npos);
  EXPECT_NE(text.find("\nlink-type\tgs1:defaultLink\tstable\t-\tresolver\thttps://ref.gs1.org/voc/defaultLink\t"),
            std::string::npos);
}

TEST(BaselineTest, EveryCurrentReleaseRoundTripsThroughTheFormat) {
  for (const std::string& name : codepayload::testing::currentReleases()) {
    SCOPED_TRACE(name);
    const Dictionary dictionary = loadRelease(releaseFile(name), linkTypesFile(), builtinLinterCatalog(kRulesDir));
    EXPECT_EQ(parseBaseline(formatBaseline(dictionary), "x.baseline").dictionary, dictionary);
  }
}

TEST(BaselineTest, FreeTextIsEscapedAndReadBack) {
  Dictionary dictionary = loadRelease(releaseFile(kNewestRelease), linkTypesFile(), builtinLinterCatalog(kRulesDir));
  dictionary.ais[0].title = "tab\there, back\\slash, line\nfeed, cr\r, bell\x07, del\x7f, ünïcödé";
  dictionary.linkTypes[0].description = "\\t is not a tab";
  const std::string text = formatBaseline(dictionary);
  EXPECT_NE(text.find("\ttab\\there, back\\\\slash, line\\nfeed, cr\\r, bell\\x07, del\\x7F, ünïcödé\n"),
            std::string::npos);
  EXPECT_EQ(parseBaseline(text, "x.baseline").dictionary, dictionary);
}

TEST(FieldEscapeTest, Rows) {
  const std::pair<std::string, std::string> rows[] = {
      {"", ""},           {"plain", "plain"}, {"a\tb", "a\\tb"}, {"a\\b", "a\\\\b"},
      {"\n\r", "\\n\\r"}, {"\x01", "\\x01"},  {"m²", "m²"},
  };
  for (const auto& [text, escaped] : rows) {
    EXPECT_EQ(escapeField(text), escaped);
    EXPECT_EQ(unescapeField(escaped), text);
  }
}

TEST(FieldEscapeTest, BadEscapesAreRefused) {
  const std::pair<std::string, std::string> rows[] = {
      {"a\\", "bad escape \"\\\" (known: \\\\ \\t \\n \\r \\xHH)"},
      {"\\q", "bad escape \"\\q\" (known: \\\\ \\t \\n \\r \\xHH)"},
      {"\\x0", "bad escape \"\\x0\" (\\x is followed by two uppercase hex digits of a control character)"},
      {"\\x41", "bad escape \"\\x41\" (\\x is followed by two uppercase hex digits of a control character)"},
      {"\\x09", "bad escape \"\\x09\" (\\x is followed by two uppercase hex digits of a control character)"},
      {"\\x7f", "bad escape \"\\x7f\" (\\x is followed by two uppercase hex digits of a control character)"},
  };
  for (const auto& [field, expected] : rows) {
    SCOPED_TRACE(field);
    try {
      unescapeField(field);
      ADD_FAILURE() << "no error";
    } catch (const SyntaxError& error) {
      EXPECT_EQ(std::string(error.what()), expected);
    }
  }
}

// A small valid baseline; rows below change one line of it.
const std::vector<std::string> kBaseline = {
    "# codepayload rule baseline, format 1",                                                                 // 1
    "# release: 2099-01-01",                                                                                 // 2
    "# dictionary: gs1-syntax-dictionary-x.txt sha256:" + std::string(64, 'a'),                              // 3
    "# link types: link-types.json sha256:" + std::string(64, 'b'),                                          // 4
    "# regenerate: codepayload-import --write-baseline x",                                                   // 5
    "# a comment",                                                                                           // 6
    "ai\t01\t*?\tN14,csum\tex=255 dlpkey=22|235\tGTIN",                                                      // 7
    "ai\t22\t-\tX..20\treq=01\tCPV",                                                                         // 8
    "ai\t235\t-\tX..28\treq=01\t",                                                                           // 9
    "ai\t255\t?\tN13,csum [N..12]\tdlpkey ex=01\tGCN",                                                       // 10
    "",                                                                                                      // 11
    "link-type\tgs1:pip\tstable\t-\t-\thttps://ref.gs1.org/voc/pip\tProduct info\tA link.",                  // 12
    "link-type\tgs1:defaultLink\tstable\tdeprecated\tresolver,x\thttps://ref.gs1.org/voc/defaultLink\tD\t",  // 13
};

std::string joinLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

class MalformedBaselineTest : public ::testing::Test {
 protected:
  MalformedBaselineTest() {
    writeFile(temp_ / "x.baseline", joinLines(kBaseline));
    importBaseline(temp_ / "x.baseline", target(), builtinLinterCatalog(kRulesDir), kSchemaDir);
    before_ = readFile(target());
  }

  std::filesystem::path target() const { return temp_ / "data/rules.db"; }

  std::string importError(const std::vector<std::string>& lines) {
    writeFile(temp_ / "x.baseline", joinLines(lines));
    std::string message = "no error";
    try {
      importBaseline(temp_ / "x.baseline", target(), builtinLinterCatalog(kRulesDir), kSchemaDir);
    } catch (const ImportError& error) {
      message = error.what();
    }
    EXPECT_TRUE(readFile(target()) == before_) << "the target database changed";
    EXPECT_EQ(listFolder(temp_ / "data"), (std::set<std::string>{"rules.db"}));
    return message;
  }

  TempDir temp_;
  std::string before_;
};

TEST_F(MalformedBaselineTest, TheSmallBaselineReadsAsWritten) {
  const Dictionary dictionary = readRules(target());
  EXPECT_EQ(dictionary.release, (ReleaseInfo{"2099-01-01", "gs1-syntax-dictionary-x.txt", std::string(64, 'a'),
                                             "link-types.json", std::string(64, 'b')}));
  ASSERT_EQ(dictionary.ais.size(), 4u);
  EXPECT_EQ(dictionary.ais[2].title, "");
  EXPECT_EQ(dictionary.linkTypes[1], (LinkType{"gs1:defaultLink",
                                               "D",
                                               "",
                                               "https://ref.gs1.org/voc/defaultLink",
                                               "stable",
                                               true,
                                               {"resolver", "x"},
                                               false}));
}

TEST_F(MalformedBaselineTest, EveryErrorIsLocatedAndWritesNothing) {
  struct Row {
    std::size_t line;
    std::string text;
    std::string expected;  // after "x.baseline"
  };
  const Row rows[] = {
      {1, "# codepayload rule baseline", ":1: must be \"# codepayload rule baseline, format 1\""},
      {1, "# codepayload rule baseline, format 2", ":1: baseline format \"2\" is not supported (this program reads 1)"},
      {2, "# release 2099-01-01", ":2: must be \"# release: <name>\""},
      {2, "# release: 2099-1-1", ":2: release \"2099-1-1\" is not a date YYYY-MM-DD"},
      {3, "# dictionary: x.txt sha256:ABC", ":3: must be \"# dictionary: <file> sha256:<64 lowercase hex digits>\""},
      {4, "# link types: link-types.json", ":4: must be \"# link types: <file> sha256:<64 lowercase hex digits>\""},
      {5, "# comment", ":5: must be \"# regenerate: <command>\""},
      {7, "ai\t01\t*?\tN14,csum\tex=255 dlpkey=22|235\tGTIN\x01", ":7: control character 0x01"},
      {7, "AI\t01", ":7: unknown record \"AI\" (known: ai, link-type)"},
      {7, "ai\t01\t*?\tN14,csum\tex=255 dlpkey=22|235", ":7: ai record has 5 fields, expected 6"},
      {7, "ai\t3100-3105\t*?\tN6\t-\tX", ":7: AI \"3100-3105\" is not 2 to 4 digits"},
      {7, "ai\t01\t?*\tN14,csum\tex=255 dlpkey=22|235\tGTIN", ":7: flags \"?*\" must be -, *, ? or *?"},
      {7, "ai\t01\t*?\tN14,csum\t\tGTIN", ":7: empty attribute in \"\""},
      {7, "ai\t01\t*?\tN14,csum\tex=255  dlpkey=22|235\tGTIN", ":7: empty attribute in \"ex=255  dlpkey=22|235\""},
      {7, "ai\t01\t*?\tN14,,csum\tex=255 dlpkey=22|235\tGTIN", ":7: component \"N14,,csum\": empty linter name"},
      {7, "ai\t01\t*?\t\tex=255 dlpkey=22|235\tGTIN", ":7: component \"\": missing character set"},
      {7, "ai\t01\t*?\tN14,csum\tex=255 dlpkey=22|235 dlpkey\tGTIN", ":7: attribute \"dlpkey\": dlpkey given twice"},
      {7, "ai\t01\t*?\tN14,csum\tex=255 dlpkey=22|235\tGT\\IN",
       ":7: bad escape \"\\I\" (known: \\\\ \\t \\n \\r \\xHH)"},
      {8, "ai\t01\t-\tX..20\treq=01\tCPV", ":8: AI 01 is defined twice (first on line 7)"},
      {8, "ai\t2\t-\tX..20\treq=01\tCPV", ":8: AI \"2\" is not 2 to 4 digits"},
      {8, "ai\t22\t-\tX..20\treq=77\tCPV", ":8: req=: \"77\" matches no AI"},
      {8, "ai\t22\t-\tX..20,nosuchlinter\treq=01\tCPV",
       ":8: linter \"nosuchlinter\" has no implementation (neither built in nor " +
           (kRulesDir / "linters/nosuchlinter.lua").string() + ")"},
      {11, "ai\t100\t-\tN6\t-\tafter", ":11: AI 100 is out of order: it must come before AI 255 (line 10)"},
      {12, "link-type\tgs1:pip\tstable\t-\t-\thttps://ref.gs1.org/voc/pip\tProduct info",
       ":12: link-type record has 7 fields, expected 8"},
      {12, "link-type\tgs1:p p\tstable\t-\t-\thttps://ref.gs1.org/voc/pip\tP\tA",
       ":12: link type id \"gs1:p p\" must be one word"},
      {12, "link-type\tgs1:pip\tvery stable\t-\t-\thttps://ref.gs1.org/voc/pip\tP\tA",
       ":12: status \"very stable\" must be one word"},
      {12, "link-type\tgs1:pip\tstable\tno\t-\thttps://ref.gs1.org/voc/pip\tP\tA",
       ":12: deprecated field \"no\" must be \"deprecated\" or \"-\""},
      {12, "link-type\tgs1:pip\tstable\t-\ta,,b\thttps://ref.gs1.org/voc/pip\tP\tA",
       ":12: restriction \"\" must be one word"},
      {12, "link-type\tgs1:pip\tstable\t-\ta,a\thttps://ref.gs1.org/voc/pip\tP\tA",
       ":12: restriction \"a\" listed twice"},
      {12, "link-type\tgs1:pip\tstable\t-\t-\thttps://ref.gs1.org/voc/ pip\tP\tA",
       ":12: uri \"https://ref.gs1.org/voc/ pip\" must be non-empty without spaces"},
      {13, "link-type\tgs1:pip\tstable\t-\t-\thttps://ref.gs1.org/voc/pip\tP\tA",
       ":13: link type \"gs1:pip\" repeated (first on line 12)"},
      {13, "ai\t8030\t?\tZ..90\t-\tDIGSIG", ":13: ai record after the link-type records"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.expected);
    std::vector<std::string> lines = kBaseline;
    lines.at(row.line - 1) = row.text;
    EXPECT_EQ(importError(lines), "x.baseline" + row.expected);
  }
}

TEST_F(MalformedBaselineTest, WholeFileErrors) {
  EXPECT_EQ(importError({kBaseline[0], kBaseline[1]}), "x.baseline: the header has fewer than 5 lines");
  EXPECT_EQ(importError({kBaseline.begin(), kBaseline.begin() + 11}), "x.baseline: no link-type records");
  std::vector<std::string> noAis(kBaseline.begin(), kBaseline.begin() + 6);
  noAis.push_back(kBaseline[11]);
  EXPECT_EQ(importError(noAis), "x.baseline: no AI entries");
}

TEST(BaselineImportTest, ImportingTheShippedBaselineGivesTheNewestRelease) {
  TempDir temp;
  const ImportSummary summary =
      importBaseline(baselinePath(kRulesDir), temp / "rules.db", builtinLinterCatalog(kRulesDir), kSchemaDir);
  EXPECT_EQ(summary, (ImportSummary{kNewestRelease, 541, 60, temp / "rules.db"}));
  EXPECT_EQ(readRules(temp / "rules.db"),
            loadRelease(releaseFile(kNewestRelease), linkTypesFile(), builtinLinterCatalog(kRulesDir)));
}

}  // namespace
}  // namespace codepayload::importer
