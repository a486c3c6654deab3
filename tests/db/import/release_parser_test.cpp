// The GS1 release parser on small synthetic release files: what it reads, and
// one row per error message, each run through a full import to show that a
// refused file leaves the target database byte for byte as it was.
#include "db/import/release_parser.h"

#include <gtest/gtest.h>

#include "db/import/rule_import.h"
#include "db/rule_store.h"
#include "plugins/builtin_plugins.h"
#include "tests/tools/test_files.h"

namespace codepayload::importer {
namespace {

using codepayload::testing::listFolder;
using codepayload::testing::readFile;
using codepayload::testing::TempDir;
using codepayload::testing::writeFile;

const std::filesystem::path kRulesDir = CODEPAYLOAD_TEST_RULES_DIR;
const std::filesystem::path kSchemaDir = CODEPAYLOAD_TEST_SCHEMA_DIR;
constexpr const char* kFileName = "gs1-syntax-dictionary-x.txt";

const std::vector<std::string> kTemplate = {
    "# GS1 Barcode Syntax Dictionary (a test release)",                                       // 1
    "#",                                                                                      // 2
    "# Release: 2099-01-01",                                                                  // 3
    "",                                                                                       // 4
    "00         *?  N18,csum                 dlpkey                      # SSCC",             // 5
    "01         *?  N14,csum                 ex=255 dlpkey=22,10,21|235  # GTIN",             // 6
    "10          ?  X..20                    req=01                      # BATCH/LOT",        // 7
    "21             X..20                    req=01                      # SERIAL",           // 8
    "22             X..20                    req=01",                                         // 9
    "235            X..28                    req=01                      # TPX",              // 10
    "255         ?  N13,csum [N..12]         dlpkey ex=01                # GCN",              // 11
    "3100-3105  *?  N6                       req=01 ex=310n              # NET WEIGHT (kg)",  // 12
    "8030        ?  Z..90                    req=00,01+21 req=10         # DIGSIG # 1",       // 13
};

std::string joinLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

struct Edit {
  enum class Kind { Replace, InsertBefore };
  std::size_t line;
  std::string text;
  Kind kind = Kind::Replace;
};

std::vector<std::string> edited(const std::vector<Edit>& edits) {
  std::vector<std::string> lines = kTemplate;
  for (const Edit& edit : edits) {
    if (edit.kind == Edit::Kind::Replace) {
      lines.at(edit.line - 1) = edit.text;
    } else {
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(edit.line - 1), edit.text);
    }
  }
  return lines;
}

TEST(ReleaseParserTest, ReadsTheTemplate) {
  const ParsedDictionary parsed = parseRelease(joinLines(kTemplate), kFileName);
  const Dictionary& dictionary = parsed.dictionary;
  EXPECT_EQ(dictionary.release.name, "2099-01-01");
  EXPECT_EQ(dictionary.release.sourceFile, kFileName);
  std::vector<std::string> ais;
  for (const AiDefinition& ai : dictionary.ais) ais.push_back(ai.ai);
  EXPECT_EQ(ais, (std::vector<std::string>{"00", "01", "10", "21", "22", "235", "255", "3100", "3101", "3102", "3103",
                                           "3104", "3105", "8030"}));
  EXPECT_EQ(parsed.aiLines, (std::vector<std::size_t>{5, 6, 7, 8, 9, 10, 11, 12, 12, 12, 12, 12, 12, 13}));

  const AiDefinition& gtin = dictionary.ais[1];
  EXPECT_TRUE(gtin.fixedLength);
  EXPECT_TRUE(gtin.digitalLinkDataAttribute);
  EXPECT_EQ(gtin.title, "GTIN");
  EXPECT_EQ(gtin.qualifierSequences, (std::vector<std::vector<std::string>>{{"22", "10", "21"}, {"235"}}));

  const AiDefinition& serial = dictionary.ais[3];
  EXPECT_FALSE(serial.fixedLength);
  EXPECT_FALSE(serial.digitalLinkDataAttribute);
  EXPECT_FALSE(serial.digitalLinkPrimaryKey);
  EXPECT_EQ(dictionary.ais[4].title, "");  // no "#": no title

  const AiDefinition& weight = dictionary.ais[10];
  EXPECT_EQ(weight.ai, "3103");
  EXPECT_EQ(weight.title, "NET WEIGHT (kg)");
  EXPECT_EQ(weight.excludes, (std::vector<AiPattern>{AiPattern{"310n"}}));

  const AiDefinition& digsig = dictionary.ais[13];
  EXPECT_EQ(digsig.title, "DIGSIG # 1");  // the title runs from the first '#'
  EXPECT_EQ(digsig.components, (std::vector<ComponentSpec>{{CharacterSet::Base64Url, 1, 90, false, {}}}));
  ASSERT_EQ(digsig.requirements.size(), 2u);
  EXPECT_EQ(digsig.requirements[0].alternatives,
            (std::vector<std::vector<AiPattern>>{{AiPattern{"00"}}, {AiPattern{"01"}, AiPattern{"21"}}}));
}

TEST(ReleaseParserTest, CrLfLinesReadTheSame) {
  std::string text;
  for (const std::string& line : kTemplate) text += line + "\r\n";
  EXPECT_EQ(parseRelease(text, kFileName).dictionary, parseRelease(joinLines(kTemplate), kFileName).dictionary);
}

class MalformedReleaseTest : public ::testing::Test {
 protected:
  MalformedReleaseTest() {
    std::filesystem::create_directories(temp_ / "input");
    writeFile(temp_ / "input/link-types.json",
              R"([{"id":"gs1:pip","title":"t","description":"d","uri":"https://ref.gs1.org/voc/pip",)"
              R"("status":"stable","deprecated":false,"restricted":[],"domain":[]}])");
    writeFile(releasePath(), joinLines(kTemplate));
    importRelease(options(), lint::builtinLinters());
    before_ = readFile(target());
  }

  std::filesystem::path releasePath() const { return temp_ / "input" / kFileName; }
  std::filesystem::path target() const { return temp_ / "data/rules.db"; }

  ImportOptions options() const {
    ImportOptions options;
    options.releaseFile = releasePath();
    options.linkTypesFile = temp_ / "input/link-types.json";
    options.dbPath = target();
    options.rulesDir = kRulesDir;
    options.schemaDir = kSchemaDir;
    return options;
  }

  // Imports `content` as the release; returns the error, checking that the
  // target is unchanged and nothing was left beside it.
  std::string importError(const std::string& content) {
    writeFile(releasePath(), content);
    std::string message = "no error";
    try {
      importRelease(options(), lint::builtinLinters());
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

struct BadRow {
  std::vector<Edit> edits;
  std::string expected;  // after "gs1-syntax-dictionary-x.txt"
};

using Kind = Edit::Kind;

TEST_F(MalformedReleaseTest, EveryErrorIsLocatedAndWritesNothing) {
  const std::string missingLua = (kRulesDir / "linters/nosuchlinter.lua").string();
  const BadRow rows[] = {
      // Header
      {{{3, "# Release: 2099-13-01"}}, ":3: release \"2099-13-01\" is not a date YYYY-MM-DD"},
      {{{3, "# no release line"}}, ":5: entry before the \"# Release: YYYY-MM-DD\" header line"},
      {{{4, "# Release: 2099-01-02", Kind::InsertBefore}}, ":4: second \"# Release:\" line (first on line 3)"},
      // Text
      {{{9, "22  X..20  req=01  # CPV\x07"}}, ":9: control character 0x07"},
      {{{9, "22  X..20  req=01  # CPV \xff"}}, ":9: not valid UTF-8"},
      // AIs
      {{{9, "2x  X..20"}}, ":9: AI \"2x\" is not 2 to 4 digits"},
      {{{12, "3100-31x5 *? N6"}}, ":12: AI range \"3100-31x5\": both ends must be 2 to 4 digits"},
      {{{12, "3100-3115 *? N6"}}, ":12: AI range \"3100-3115\": the ends may differ in the last digit only"},
      {{{12, "3105-3100 *? N6"}}, ":12: AI range \"3105-3100\": the end must be greater than the start"},
      {{{10, "22  X..20", Kind::InsertBefore}}, ":10: AI 22 is defined twice (first on line 9)"},
      {{{13, "3103  N6", Kind::InsertBefore}}, ":13: AI 3103 is defined twice (first on line 12)"},
      {{{10, "20  N2", Kind::InsertBefore}}, ":10: AI 20 is out of order: it must come before AI 22 (line 9)"},
      // Flags
      {{{13, "8030 ! Z..90"}}, ":13: unknown flag \"!\" (known: \"*\", \"?\")"},
      {{{13, "8030 ?? Z..90"}}, ":13: flag \"?\" given twice"},
      // Specification
      {{{13, "8030 ? req=00"}}, ":13: no format specification"},
      {{{13, "8030 ? Z.. req=00"}}, ":13: component \"Z..\": missing length"},
      {{{13, "8030 ? [] req=00"}}, ":13: component \"[]\": missing character set"},
      {{{13, "8030 ? B..90"}}, ":13: component \"B..90\": unknown character set \"B\" (expected N, X, Y or Z)"},
      {{{13, "8030 ? Z..100"}}, ":13: component \"Z..100\": length \"100\" is not a number from 1 to 99"},
      {{{11, "255 ? N13,csum [N..12"}}, ":11: component \"[N..12\": missing \"]\" after the type"},
      {{{11, "255 ? N13,csum N..12]"}}, ":11: component \"N..12]\": \"]\" without \"[\""},
      {{{6, "01 *? N14,,csum"}}, ":6: component \"N14,,csum\": empty linter name"},
      {{{6, "01 *? N14,CSUM"}}, ":6: component \"N14,CSUM\": linter name \"CSUM\" is not lowercase letters and digits"},
      {{{6, "01 *? N14,csum,csum"}}, ":6: component \"N14,csum,csum\": linter \"csum\" listed twice"},
      {{{11, "255 ? N..13 N12"}}, ":11: component \"N..13\": only the last component may have variable length"},
      {{{11, "255 ? [N13] N12"}}, ":11: component \"N12\": mandatory component after an optional one"},
      {{{13, "8030 ? Z..90 req=00 N3"}}, ":13: component \"N3\" after the attributes"},
      // Attributes
      {{{13, "8030 ? Z..90 req=00 sunrise=1"}}, ":13: unknown attribute \"sunrise=1\" (known: req=, ex=, dlpkey)"},
      {{{13, "8030 ? Z..90 req"}}, ":13: attribute \"req\": needs a value (req=...)"},
      {{{13, "8030 ? Z..90 ex="}}, ":13: attribute \"ex=\": empty value"},
      {{{13, "8030 ? Z..90 req=00,,01"}}, ":13: attribute \"req=00,,01\": empty alternative"},
      {{{13, "8030 ? Z..90 req=01+"}}, ":13: attribute \"req=01+\": empty AI pattern"},
      {{{13, "8030 ? Z..90 req=0x"}}, ":13: attribute \"req=0x\": \"0x\" is not an AI or AI pattern"},
      {{{13, "8030 ? Z..90 req=01+01"}}, ":13: attribute \"req=01+01\": \"01\" repeated in \"01+01\""},
      {{{13, "8030 ? Z..90 req=00,00"}}, ":13: attribute \"req=00,00\": alternative \"00\" repeated"},
      {{{13, "8030 ? Z..90 ex=01 ex=01"}}, ":13: attribute \"ex=01\": \"01\" excluded twice"},
      {{{5, "00 *? N18,csum dlpkey dlpkey"}}, ":5: attribute \"dlpkey\": dlpkey given twice"},
      {{{6, "01 *? N14,csum dlpkey=22||10"}}, ":6: attribute \"dlpkey=22||10\": empty qualifier sequence"},
      {{{6, "01 *? N14,csum dlpkey=22,,10"}}, ":6: attribute \"dlpkey=22,,10\": empty qualifier"},
      {{{6, "01 *? N14,csum dlpkey=2n"}}, ":6: attribute \"dlpkey=2n\": \"2n\" is not an AI"},
      {{{6, "01 *? N14,csum dlpkey=22,22"}}, ":6: attribute \"dlpkey=22,22\": \"22\" repeated in \"22,22\""},
      {{{6, "01 *? N14,csum dlpkey=22|22"}}, ":6: attribute \"dlpkey=22|22\": qualifier sequence \"22\" repeated"},
      // Checks across entries
      {{{12, "310  N3", Kind::InsertBefore}},
       ":13: AI 3100 starts with AI 310 (line 12); AIs must not be prefixes of one another"},
      {{{13, "8030 ? Z..90 req=99"}}, ":13: req=: \"99\" matches no AI"},
      {{{13, "8030 ? Z..90 ex=7nnn"}}, ":13: ex=: \"7nnn\" matches no AI"},
      {{{6, "01 *? N14,csum dlpkey=7040"}}, ":6: dlpkey=: qualifier \"7040\" is not an AI"},
      {{{6, "01 *? N14,csum dlpkey=01"}}, ":6: dlpkey=: qualifier \"01\" is the key itself"},
      // Linters
      {{{13, "8030 ? Z..90,nosuchlinter"}},
       ":13: linter \"nosuchlinter\" has no implementation (neither built in nor " + missingLua + ")"},
  };
  for (const BadRow& row : rows) {
    SCOPED_TRACE(row.expected);
    EXPECT_EQ(importError(joinLines(edited(row.edits))), kFileName + row.expected);
  }
}

TEST_F(MalformedReleaseTest, EveryMissingLinterIsNamed) {
  const std::vector<Edit> edits = {
      {9, "22  X..20,missingone  req=01"}, {13, "8030 ? Z..90,nosuchlinter"}, {10, "235  X..28,missingone"}};
  const std::string expected = std::string(kFileName) +
                               ":9: linter \"missingone\" has no implementation (neither built in nor " +
                               (kRulesDir / "linters/missingone.lua").string() + ")\n" + kFileName +
                               ":13: linter \"nosuchlinter\" has no implementation (neither built in nor " +
                               (kRulesDir / "linters/nosuchlinter.lua").string() + ")";
  EXPECT_EQ(importError(joinLines(edited(edits))), expected);
}

TEST_F(MalformedReleaseTest, FileWithoutEntries) {
  EXPECT_EQ(importError(joinLines({kTemplate[0], kTemplate[1], kTemplate[2]})),
            std::string(kFileName) + ": no AI entries");
  EXPECT_EQ(importError(""), std::string(kFileName) + ": no AI entries");
}

TEST_F(MalformedReleaseTest, MissingFiles) {
  ImportOptions missingRelease = options();
  missingRelease.releaseFile = temp_ / "input/absent.txt";
  try {
    importRelease(missingRelease, lint::builtinLinters());
    ADD_FAILURE() << "no error";
  } catch (const ImportError& error) {
    EXPECT_EQ(std::string(error.what()),
              (temp_ / "input/absent.txt").string() + ": cannot read: No such file or directory");
  }
  ImportOptions missingLinkTypes = options();
  missingLinkTypes.linkTypesFile = temp_ / "input";
  try {
    importRelease(missingLinkTypes, lint::builtinLinters());
    ADD_FAILURE() << "no error";
  } catch (const ImportError& error) {
    EXPECT_EQ(std::string(error.what()), (temp_ / "input").string() + ": cannot read: is a directory");
  }
  EXPECT_TRUE(readFile(target()) == before_);
}

TEST_F(MalformedReleaseTest, BadLinkTypesWriteNothing) {
  writeFile(temp_ / "input/link-types.json", R"([{"id":"gs1:pip"}])");
  std::string message = "no error";
  try {
    importRelease(options(), lint::builtinLinters());
  } catch (const ImportError& error) {
    message = error.what();
  }
  EXPECT_EQ(message, "link-types.json: entry 1 (gs1:pip): \"title\" is missing");
  EXPECT_TRUE(readFile(target()) == before_);
  EXPECT_EQ(listFolder(temp_ / "data"), (std::set<std::string>{"rules.db"}));
}

TEST_F(MalformedReleaseTest, DatabaseFailuresNameTheDatabaseAndWriteNothing) {
  ImportOptions noSchema = options();
  noSchema.schemaDir = temp_ / "noschema";
  std::string message = "no error";
  try {
    importRelease(noSchema, lint::builtinLinters());
  } catch (const ImportError& error) {
    message = error.what();
  }
  EXPECT_EQ(message,
            target().string() + ": migration folder " + (temp_ / "noschema/rules").string() + " does not exist");
  EXPECT_TRUE(readFile(target()) == before_);
  EXPECT_EQ(listFolder(temp_ / "data"), (std::set<std::string>{"rules.db"}));
}

TEST_F(MalformedReleaseTest, AGoodFileReplacesTheDatabase) {
  writeFile(releasePath(), joinLines(edited({{3, "# Release: 2099-02-02"}})));
  const ImportSummary summary = importRelease(options(), lint::builtinLinters());
  EXPECT_EQ(summary, (ImportSummary{"2099-02-02", 14, 1, target()}));
  EXPECT_FALSE(readFile(target()) == before_);
  EXPECT_EQ(readRules(target()).release.name, "2099-02-02");
  EXPECT_EQ(listFolder(temp_ / "data"), (std::set<std::string>{"rules.db"}));
}

}  // namespace
}  // namespace codepayload::importer
