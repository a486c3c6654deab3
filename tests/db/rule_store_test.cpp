#include "db/rule_store.h"

#include <gtest/gtest.h>

#include "db/import/rule_import.h"
#include "db/migrations.h"
#include "db/sqlite_connection.h"
#include "plugins/builtin_plugins.h"
#include "tests/tools/test_files.h"

namespace codepayload {
namespace {

using testing::readFile;
using testing::TempDir;
using testing::writeFile;

const std::filesystem::path kSchemaDir = CODEPAYLOAD_TEST_SCHEMA_DIR;
const std::filesystem::path kRulesDir = CODEPAYLOAD_TEST_RULES_DIR;

// A fresh database with the rule schema, `dictionary` written into it.
void createRulesDatabase(const std::filesystem::path& path, const Dictionary& dictionary,
                         const std::filesystem::path& rulesDir) {
  sqlite::Connection connection(path, sqlite::Connection::Mode::ReadWriteCreate);
  applyMigrations(connection.handle(), rulesMigrationsDir(kSchemaDir));
  writeRules(connection.handle(), dictionary, builtinLinterCatalog(rulesDir));
  connection.close();
}

std::vector<std::string> linterRows(const std::filesystem::path& path) {
  sqlite::Connection connection(path, sqlite::Connection::Mode::ReadOnly);
  sqlite::Statement query(connection.handle(), "SELECT name, implementation FROM linter ORDER BY name");
  std::vector<std::string> rows;
  while (query.step()) rows.push_back(std::string(query.text(0)) + "=" + std::string(query.text(1)));
  return rows;
}

ComponentSpec component(CharacterSet charset, std::uint16_t min, std::uint16_t max, bool optional,
                        std::vector<std::string> linters) {
  return ComponentSpec{charset, min, max, optional, std::move(linters)};
}

// Every shape the model can take, in one small dictionary.
Dictionary syntheticDictionary() {
  Dictionary dictionary;
  dictionary.release = ReleaseInfo{"2099-12-31", "gs1-syntax-dictionary-test.txt", std::string(64, 'a'),
                                   "link-types-test.json", std::string(64, 'b')};
  AiDefinition gtin;
  gtin.ai = "01";
  gtin.title = "GTIN";
  gtin.fixedLength = true;
  gtin.digitalLinkDataAttribute = true;
  gtin.components = {component(CharacterSet::Numeric, 14, 14, false, {"csum", "testlua"})};
  gtin.excludes = {AiPattern{"255"}, AiPattern{"31nn"}};
  gtin.digitalLinkPrimaryKey = true;
  gtin.qualifierSequences = {{"22", "10"}, {"235"}};
  AiDefinition batch;
  batch.ai = "10";
  batch.components = {component(CharacterSet::Cset82, 1, 20, false, {})};
  batch.requirements = {RequiresRule{{{AiPattern{"01"}, AiPattern{"22"}}, {AiPattern{"255"}}}},
                        RequiresRule{{{AiPattern{"31nn"}}}}};
  AiDefinition cpv;
  cpv.ai = "22";
  cpv.title = "CPV – ünïcode\ttab";
  cpv.components = {component(CharacterSet::Cset39, 2, 2, false, {}),
                    component(CharacterSet::Base64Url, 1, 17, true, {"testlua"})};
  AiDefinition tpx;
  tpx.ai = "235";
  tpx.title = "TPX";
  tpx.components = {component(CharacterSet::Cset82, 1, 28, false, {})};
  AiDefinition gcn;
  gcn.ai = "255";
  gcn.title = "GCN";
  gcn.components = {component(CharacterSet::Numeric, 13, 13, false, {"csum"}),
                    component(CharacterSet::Numeric, 1, 12, true, {})};
  gcn.digitalLinkPrimaryKey = true;
  AiDefinition weight;
  weight.ai = "3103";
  weight.title = "NET WEIGHT (kg)";
  weight.components = {component(CharacterSet::Numeric, 6, 6, false, {})};
  dictionary.ais = {gtin, batch, cpv, tpx, gcn, weight};
  dictionary.linkTypes = {
      LinkType{"gs1:pip",
               "Product information",
               "A link to \"product\" information.",
               "https://ref.gs1.org/voc/pip",
               "stable",
               false,
               {},
               true},
      LinkType{"gs1:defaultLink",
               "Default",
               "",
               "https://ref.gs1.org/voc/defaultLink",
               "stable",
               false,
               {"resolver", "other"},
               false},
      LinkType{"gs1:old", "Old", "d", "https://ref.gs1.org/voc/old", "deprecated", true, {"validatedHealthcare"}, true},
  };
  return dictionary;
}

class RuleStoreTest : public ::testing::Test {
 protected:
  RuleStoreTest() {
    std::filesystem::create_directories(temp_ / "rules/linters");
    writeFile(temp_ / "rules/linters/testlua.lua", "return {}\n");
  }

  std::filesystem::path rulesDir() const { return temp_ / "rules"; }

  TempDir temp_;
};

TEST_F(RuleStoreTest, SyntheticDictionaryRoundTrips) {
  const Dictionary dictionary = syntheticDictionary();
  createRulesDatabase(temp_ / "rules.db", dictionary, rulesDir());
  EXPECT_EQ(readRules(temp_ / "rules.db"), dictionary);
  EXPECT_EQ(linterRows(temp_ / "rules.db"), (std::vector<std::string>{"csum=builtin", "testlua=lua"}));
}

TEST_F(RuleStoreTest, ReadingChangesNothing) {
  createRulesDatabase(temp_ / "rules.db", syntheticDictionary(), rulesDir());
  const std::string before = readFile(temp_ / "rules.db");
  readRules(temp_ / "rules.db");
  EXPECT_EQ(readFile(temp_ / "rules.db"), before);
  EXPECT_EQ(testing::listFolder(temp_.path()), (std::set<std::string>{"rules", "rules.db"}));
}

TEST_F(RuleStoreTest, LinterWithoutImplementationWritesNothing) {
  Dictionary dictionary = syntheticDictionary();
  dictionary.ais[3].components[0].linters = {"nosuchlinter"};
  sqlite::Connection connection(temp_ / "rules.db", sqlite::Connection::Mode::ReadWriteCreate);
  applyMigrations(connection.handle(), rulesMigrationsDir(kSchemaDir));
  try {
    writeRules(connection.handle(), dictionary, builtinLinterCatalog(rulesDir()));
    ADD_FAILURE() << "no error";
  } catch (const DbError& error) {
    EXPECT_EQ(std::string(error.what()),
              "linter \"nosuchlinter\" (AI 235) has no implementation (neither built in nor " +
                  (rulesDir() / "linters/nosuchlinter.lua").string() + ")");
  }
  sqlite::Statement releases(connection.handle(), "SELECT count(*) FROM release");
  ASSERT_TRUE(releases.step());
  EXPECT_EQ(releases.integer(0), 0);
}

TEST_F(RuleStoreTest, MissingDatabaseIsAnError) {
  try {
    readRules(temp_ / "absent.db");
    ADD_FAILURE() << "no error";
  } catch (const DbError& error) {
    EXPECT_EQ(std::string(error.what()), "rule database " + (temp_ / "absent.db").string() + " does not exist");
  }
  EXPECT_FALSE(std::filesystem::exists(temp_ / "absent.db"));
}

TEST_F(RuleStoreTest, DatabaseWithoutTheRuleSchemaIsAnError) {
  {
    sqlite::Connection connection(temp_ / "other.db", sqlite::Connection::Mode::ReadWriteCreate);
    sqlite::execute(connection.handle(), "CREATE TABLE something (x INTEGER)", "test table");
  }
  try {
    readRules(temp_ / "other.db");
    ADD_FAILURE() << "no error";
  } catch (const DbError& error) {
    EXPECT_EQ(std::string(error.what()),
              "rule database " + (temp_ / "other.db").string() + " has schema version 0, this program reads version 1");
  }
}

TEST_F(RuleStoreTest, EmptyRuleTablesAreAnError) {
  {
    sqlite::Connection connection(temp_ / "empty.db", sqlite::Connection::Mode::ReadWriteCreate);
    applyMigrations(connection.handle(), rulesMigrationsDir(kSchemaDir));
  }
  try {
    readRules(temp_ / "empty.db");
    ADD_FAILURE() << "no error";
  } catch (const DbError& error) {
    EXPECT_EQ(std::string(error.what()), "rule database: the release table is empty");
  }
}

TEST_F(RuleStoreTest, HandEditedOrdinalsAreDetected) {
  createRulesDatabase(temp_ / "rules.db", syntheticDictionary(), rulesDir());
  {
    sqlite::Connection connection(temp_ / "rules.db", sqlite::Connection::Mode::ReadWriteCreate);
    sqlite::execute(connection.handle(), "UPDATE ai_excludes SET position = 3 WHERE ai = '01' AND position = 2",
                    "edit");
  }
  try {
    readRules(temp_ / "rules.db");
    ADD_FAILURE() << "no error";
  } catch (const DbError& error) {
    EXPECT_EQ(std::string(error.what()), "rule database: ex= of AI 01 is numbered 3, expected 2");
  }
}

TEST(RuleStoreReleaseTest, EveryCurrentReleaseRoundTrips) {
  const std::vector<std::string> releases = testing::currentReleases();
  ASSERT_EQ(releases, (std::vector<std::string>{"2024-06-10", "2025-01-30", "2026-01-27"}));
  for (const std::string& release : releases) {
    SCOPED_TRACE(release);
    TempDir temp;
    const Dictionary dictionary =
        importer::loadRelease(testing::releaseFile(release), testing::linkTypesFile(), builtinLinterCatalog(kRulesDir));
    createRulesDatabase(temp / "rules.db", dictionary, kRulesDir);
    EXPECT_EQ(readRules(temp / "rules.db"), dictionary);
  }
}

}  // namespace
}  // namespace codepayload
