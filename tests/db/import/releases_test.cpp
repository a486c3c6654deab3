// Every GS1 release in the shared folder: the current ones (2024-06-10 on)
// import; older ones import exactly when each linter they name has an
// implementation. Spot checks pin exact values.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "db/import/release_parser.h"
#include "db/import/rule_import.h"
#include "db/import/source_file.h"
#include "db/rule_store.h"
#include "engine/linter_catalog.h"
#include "plugins/builtin_plugins.h"
#include "tests/tools/test_files.h"

namespace codepayload::importer {
namespace {

using codepayload::testing::linkTypesFile;
using codepayload::testing::releaseFile;
using codepayload::testing::TempDir;

const std::filesystem::path kRulesDir = CODEPAYLOAD_TEST_RULES_DIR;
const std::filesystem::path kSchemaDir = CODEPAYLOAD_TEST_SCHEMA_DIR;

const Dictionary& release(const std::string& name) {
  static std::map<std::string, Dictionary> cache;
  auto it = cache.find(name);
  if (it == cache.end())
    it = cache.emplace(name, loadRelease(releaseFile(name), linkTypesFile(), builtinLinterCatalog(kRulesDir))).first;
  return it->second;
}

const AiDefinition* find(const Dictionary& dictionary, std::string_view ai) {
  auto it = std::find_if(dictionary.ais.begin(), dictionary.ais.end(),
                         [ai](const AiDefinition& entry) { return entry.ai == ai; });
  return it == dictionary.ais.end() ? nullptr : &*it;
}

std::vector<AiPattern> patterns(std::initializer_list<const char*> texts) {
  std::vector<AiPattern> result;
  for (const char* text : texts) result.push_back(AiPattern{text});
  return result;
}

TEST(ReleasesTest, TheSharedFolderHoldsEveryRelease) {
  EXPECT_EQ(codepayload::testing::allReleases(),
            (std::vector<std::string>{"2022-08-10", "2022-11-24", "2023-03-22", "2023-07-04", "2023-09-22",
                                      "2023-12-11", "2024-06-10", "2025-01-30", "2026-01-27"}));
}

TEST(ReleasesTest, EveryCurrentReleaseImports) {
  const std::map<std::string, std::size_t> expectedAis = {
      {"2024-06-10", 532}, {"2025-01-30", 536}, {"2026-01-27", 541}};
  for (const std::string& name : codepayload::testing::currentReleases()) {
    SCOPED_TRACE(name);
    TempDir temp;
    ImportOptions options;
    options.releaseFile = releaseFile(name);
    options.linkTypesFile = linkTypesFile();
    options.dbPath = temp / "rules.db";
    options.rulesDir = kRulesDir;
    options.schemaDir = kSchemaDir;
    EXPECT_EQ(importRelease(options, lint::builtinLinters()),
              (ImportSummary{name, expectedAis.at(name), 60, temp / "rules.db"}));
    const Dictionary stored = readRules(temp / "rules.db");
    EXPECT_EQ(stored, release(name));
    const SourceFile source = readSourceFile(releaseFile(name));
    EXPECT_EQ(stored.release, (ReleaseInfo{name, "gs1-syntax-dictionary-" + name + ".txt", source.sha256,
                                           "link-types.json", readSourceFile(linkTypesFile()).sha256}));
  }
}

// The message an import gives when linters are missing: one line per linter
// at its first use, "" when none is missing.
std::string missingLinterMessage(const ParsedDictionary& parsed) {
  std::set<std::string> seen;
  std::string message;
  for (std::size_t i = 0; i < parsed.dictionary.ais.size(); ++i) {
    for (const ComponentSpec& component : parsed.dictionary.ais[i].components) {
      for (const std::string& linter : component.linters) {
        if (!seen.insert(linter).second || builtinLinterCatalog(kRulesDir).find(linter) != LinterSource::None) continue;
        if (!message.empty()) message += "\n";
        message += parsed.fileName + ":" + std::to_string(parsed.aiLines[i]) + ": linter \"" + linter +
                   "\" has no implementation (neither built in nor " + (kRulesDir / "linters").string() + "/" + linter +
                   ".lua)";
      }
    }
  }
  return message;
}

TEST(ReleasesTest, OlderReleasesImportExactlyWhenEveryLinterIsImplemented) {
  for (const std::string& name : codepayload::testing::allReleases()) {
    if (name >= "2024-06-10") continue;
    SCOPED_TRACE(name);
    const SourceFile source = readSourceFile(releaseFile(name));
    const std::string missing = missingLinterMessage(parseRelease(source.content, source.name));
    TempDir temp;
    ImportOptions options;
    options.releaseFile = releaseFile(name);
    options.linkTypesFile = linkTypesFile();
    options.dbPath = temp / "rules.db";
    options.rulesDir = kRulesDir;
    options.schemaDir = kSchemaDir;
    std::string error;
    try {
      EXPECT_EQ(importRelease(options, lint::builtinLinters()).release, name);
    } catch (const ImportError& failure) {
      error = failure.what();
    }
    EXPECT_EQ(error, missing);
    if (missing.empty()) {
      EXPECT_EQ(readRules(temp / "rules.db"),
                loadRelease(releaseFile(name), linkTypesFile(), builtinLinterCatalog(kRulesDir)));
    } else {
      EXPECT_FALSE(std::filesystem::exists(temp / "rules.db"));
    }
  }
}

TEST(ReleasesTest, OlderReleasesHaveNoDataAttributes) {
  const Dictionary dictionary =
      loadRelease(releaseFile("2023-12-11"), linkTypesFile(), builtinLinterCatalog(kRulesDir));
  EXPECT_TRUE(std::none_of(dictionary.ais.begin(), dictionary.ais.end(),
                           [](const AiDefinition& ai) { return ai.digitalLinkDataAttribute; }));
  EXPECT_EQ(find(dictionary, "01")->components[0].linters, (std::vector<std::string>{"csum", "key"}));
}

TEST(ReleasesTest, GtinSpotCheck) {
  for (const std::string& name : codepayload::testing::currentReleases()) {
    SCOPED_TRACE(name);
    const AiDefinition* gtin = find(release(name), "01");
    ASSERT_NE(gtin, nullptr);
    EXPECT_EQ(gtin->title, "GTIN");
    EXPECT_TRUE(gtin->fixedLength);
    EXPECT_TRUE(gtin->digitalLinkDataAttribute);
    EXPECT_TRUE(gtin->digitalLinkPrimaryKey);
    EXPECT_EQ(gtin->qualifierSequences, (std::vector<std::vector<std::string>>{{"22", "10", "21"}, {"235"}}));
    EXPECT_TRUE(gtin->requirements.empty());
  }
  const AiDefinition* gtin2026 = find(release("2026-01-27"), "01");
  EXPECT_EQ(gtin2026->components,
            (std::vector<ComponentSpec>{{CharacterSet::Numeric, 14, 14, false, {"csum", "gcppos2"}}}));
  EXPECT_EQ(gtin2026->excludes, patterns({"255", "37"}));
}

TEST(ReleasesTest, RangesAndPatterns) {
  const Dictionary& dictionary = release("2026-01-27");
  for (const char* ai : {"3100", "3101", "3102", "3103", "3104", "3105"}) {
    SCOPED_TRACE(ai);
    const AiDefinition* weight = find(dictionary, ai);
    ASSERT_NE(weight, nullptr);
    EXPECT_EQ(weight->title, "NET WEIGHT (kg)");
    EXPECT_EQ(weight->excludes, patterns({"310n"}));
    ASSERT_EQ(weight->requirements.size(), 1u);
    EXPECT_EQ(weight->requirements[0].alternatives,
              (std::vector<std::vector<AiPattern>>{patterns({"01"}), patterns({"02"})}));
  }
  EXPECT_EQ(find(dictionary, "3106"), nullptr);
  for (const char* ai : {"91", "95", "99"}) EXPECT_EQ(find(dictionary, ai)->components[0].maxLength, 90);
  const AiDefinition* price = find(dictionary, "3925");
  ASSERT_EQ(price->requirements.size(), 2u);
  EXPECT_EQ(price->requirements[1].alternatives,
            (std::vector<std::vector<AiPattern>>{patterns({"30"}), patterns({"31nn"}), patterns({"32nn"}),
                                                 patterns({"35nn"}), patterns({"36nn"})}));
}

TEST(ReleasesTest, DigitalSignatureRequirements) {
  const AiDefinition* digsig = find(release("2026-01-27"), "8030");
  ASSERT_NE(digsig, nullptr);
  EXPECT_EQ(digsig->components, (std::vector<ComponentSpec>{{CharacterSet::Base64Url, 1, 90, false, {}}}));
  ASSERT_EQ(digsig->requirements.size(), 1u);
  EXPECT_EQ(digsig->requirements[0].alternatives,
            (std::vector<std::vector<AiPattern>>{patterns({"00"}), patterns({"01", "21"}), patterns({"253"}),
                                                 patterns({"255"}), patterns({"8003"}), patterns({"8004"}),
                                                 patterns({"8006", "21"}), patterns({"8010", "8011"}),
                                                 patterns({"8017"}), patterns({"8018"})}));
}

TEST(ReleasesTest, OtherSpotChecks) {
  const Dictionary& dictionary = release("2026-01-27");
  EXPECT_EQ(find(dictionary, "8110")->title, "");
  EXPECT_EQ(find(dictionary, "8110")->components,
            (std::vector<ComponentSpec>{{CharacterSet::Cset82, 1, 70, false, {"couponcode"}}}));
  EXPECT_FALSE(find(dictionary, "21")->digitalLinkDataAttribute);
  EXPECT_TRUE(find(dictionary, "10")->digitalLinkDataAttribute);
  EXPECT_EQ(find(dictionary, "414")->qualifierSequences, (std::vector<std::vector<std::string>>{{"254"}, {"7040"}}));
  EXPECT_TRUE(find(dictionary, "00")->digitalLinkPrimaryKey);
  EXPECT_TRUE(find(dictionary, "00")->qualifierSequences.empty());
  EXPECT_EQ(find(dictionary, "3140")->title, "AREA (m²)");
  const AiDefinition* temperature = find(dictionary, "4330");
  EXPECT_EQ(temperature->components, (std::vector<ComponentSpec>{{CharacterSet::Numeric, 6, 6, false, {}},
                                                                 {CharacterSet::Cset82, 1, 1, true, {"hyphen"}}}));
  EXPECT_EQ(find(dictionary, "250")->requirements.size(), 2u);
}

TEST(ReleasesTest, AisAddedByRelease) {
  const Dictionary& r2024 = release("2024-06-10");
  const Dictionary& r2025 = release("2025-01-30");
  const Dictionary& r2026 = release("2026-01-27");
  for (const char* ai : {"717", "8040", "8041", "8042", "8043"}) {
    SCOPED_TRACE(ai);
    EXPECT_NE(find(r2026, ai), nullptr);
    EXPECT_EQ(find(r2025, ai), nullptr);
  }
  EXPECT_EQ(find(r2026, "8043")->components, (std::vector<ComponentSpec>{{CharacterSet::Numeric, 18, 18, false, {}},
                                                                         {CharacterSet::Numeric, 1, 2, true, {}}}));
  for (const char* ai : {"03", "716", "7041", "8014"}) {
    SCOPED_TRACE(ai);
    EXPECT_NE(find(r2025, ai), nullptr);
    EXPECT_EQ(find(r2024, ai), nullptr);
  }
  EXPECT_FALSE(find(r2025, "03")->digitalLinkDataAttribute);
  EXPECT_FALSE(find(r2025, "03")->digitalLinkPrimaryKey);
}

}  // namespace
}  // namespace codepayload::importer
