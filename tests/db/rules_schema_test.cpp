// The rule schema (db/rules/*.sql) itself: it applies, and its constraints
// refuse rows the importer would never write.
#include <gtest/gtest.h>

#include "db/migrations.h"
#include "db/rule_store.h"
#include "db/sqlite_connection.h"
#include "tests/tools/test_files.h"

namespace codepayload {
namespace {

using testing::TempDir;

const std::filesystem::path kSchemaDir = CODEPAYLOAD_TEST_SCHEMA_DIR;

class RulesSchemaTest : public ::testing::Test {
 protected:
  RulesSchemaTest() : connection_(temp_ / "rules.db", sqlite::Connection::Mode::ReadWriteCreate) {
    applyMigrations(db(), rulesMigrationsDir(kSchemaDir));
    sqlite::execute(
        db(),
        "INSERT INTO application_identifier VALUES ('01', 'GTIN', 1, 1, 'N14');"
        "INSERT INTO application_identifier VALUES ('10', 'BATCH/LOT', 0, 1, 'X..20');"
        "INSERT INTO format_component VALUES ('01', 1, 'N', 14, 14, 0);"
        "INSERT INTO linter VALUES ('csum', 'builtin');"
        "INSERT INTO dl_primary_key VALUES ('01');"
        "INSERT INTO link_type VALUES ('gs1:pip', 1, 't', 'd', 'https://ref.gs1.org/voc/pip', 'stable', 0, 1);",
        "test rows");
  }

  sqlite3* db() const { return connection_.handle(); }

  // The SQLite message of a refused statement, "" when it passed.
  std::string refusal(const std::string& sql) const {
    try {
      sqlite::execute(db(), sql.c_str(), "statement");
    } catch (const DbError& error) {
      return error.what();
    }
    return "";
  }

  TempDir temp_;
  sqlite::Connection connection_;
};

TEST_F(RulesSchemaTest, TheFolderHasTheVersionTheRuleStoreReads) {
  EXPECT_EQ(listMigrations(rulesMigrationsDir(kSchemaDir)).size(), static_cast<std::size_t>(kRulesSchemaVersion));
  EXPECT_EQ(schemaVersion(db()), kRulesSchemaVersion);
}

TEST_F(RulesSchemaTest, ValidRowsAreAccepted) {
  EXPECT_EQ(refusal("INSERT INTO component_linter VALUES ('01', 1, 1, 'csum')"), "");
  EXPECT_EQ(refusal("INSERT INTO dl_qualifier VALUES ('01', 1, 1, '10')"), "");
  EXPECT_EQ(refusal("INSERT INTO ai_requires VALUES ('10', 1, 1, 1, '01')"), "");
  EXPECT_EQ(refusal("INSERT INTO ai_excludes VALUES ('01', 1, '31nn')"), "");
  EXPECT_EQ(refusal("INSERT INTO link_type_restriction VALUES ('gs1:pip', 1, 'resolver')"), "");
}

TEST_F(RulesSchemaTest, ConstraintsRefuseWhatTheImporterNeverWrites) {
  struct Row {
    std::string sql;
    std::string message;
  };
  const std::string hash = "'" + std::string(64, 'a') + "'";
  const Row rows[] = {
      {"INSERT INTO release VALUES (2, '2026-01-27', 'f', " + hash + ", 'l', " + hash + ", '2026-01-01T00:00:00Z')",
       "statement: CHECK constraint failed: id = 1"},
      {"INSERT INTO release VALUES (1, '26-01-27', 'f', " + hash + ", 'l', " + hash + ", '2026-01-01T00:00:00Z')",
       "statement: CHECK constraint failed: name GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'"},
      {"INSERT INTO release VALUES (1, '2026-01-27', 'f', 'ABC', 'l', " + hash + ", '2026-01-01T00:00:00Z')",
       "statement: CHECK constraint failed: length(source_sha256) = 64 AND source_sha256 NOT GLOB '*[^0-9a-f]*'"},
      {"INSERT INTO application_identifier VALUES ('1', 'x', 0, 0, 'N1')",
       "statement: CHECK constraint failed: length(ai) BETWEEN 2 AND 4 AND ai NOT GLOB '*[^0-9]*'"},
      {"INSERT INTO application_identifier VALUES ('20', 'x', 2, 0, 'N1')",
       "statement: CHECK constraint failed: fixed_length IN (0, 1)"},
      {"INSERT INTO application_identifier VALUES ('20', 'x', 'yes', 0, 'N1')",
       "statement: cannot store TEXT value in INTEGER column application_identifier.fixed_length"},
      {"INSERT INTO format_component VALUES ('01', 2, 'Q', 1, 1, 0)",
       "statement: CHECK constraint failed: charset IN ('N', 'X', 'Y', 'Z')"},
      {"INSERT INTO format_component VALUES ('01', 2, 'N', 5, 4, 0)",
       "statement: CHECK constraint failed: max_length BETWEEN min_length AND 99"},
      {"INSERT INTO format_component VALUES ('99', 1, 'N', 1, 1, 0)", "statement: FOREIGN KEY constraint failed"},
      {"INSERT INTO component_linter VALUES ('01', 2, 1, 'csum')", "statement: FOREIGN KEY constraint failed"},
      {"INSERT INTO component_linter VALUES ('01', 1, 1, 'nolinter')", "statement: FOREIGN KEY constraint failed"},
      {"INSERT INTO linter VALUES ('lua1', 'python')",
       "statement: CHECK constraint failed: implementation IN ('builtin', 'lua')"},
      {"INSERT INTO dl_qualifier VALUES ('10', 1, 1, '01')", "statement: FOREIGN KEY constraint failed"},
      {"INSERT INTO dl_qualifier VALUES ('01', 1, 1, '01')",
       "statement: CHECK constraint failed: qualifier_ai <> primary_key"},
      {"INSERT INTO ai_requires VALUES ('10', 1, 1, 1, 'n1')",
       "statement: CHECK constraint failed: length(pattern) BETWEEN 2 AND 4 AND pattern GLOB '[0-9]*' AND pattern NOT "
       "GLOB '*[^0-9n]*'"},
      {"INSERT INTO ai_excludes VALUES ('01', 1, '3x')",
       "statement: CHECK constraint failed: length(pattern) BETWEEN 2 AND 4 AND pattern GLOB '[0-9]*' AND pattern NOT "
       "GLOB '*[^0-9n]*'"},
      {"INSERT INTO link_type_restriction VALUES ('gs1:none', 1, 'resolver')",
       "statement: FOREIGN KEY constraint failed"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.sql);
    EXPECT_EQ(refusal(row.sql), row.message);
  }
}

TEST_F(RulesSchemaTest, DuplicatesAreRefused) {
  EXPECT_EQ(refusal("INSERT INTO ai_excludes VALUES ('01', 1, '10'); INSERT INTO ai_excludes VALUES ('01', 2, '10')"),
            "statement: UNIQUE constraint failed: ai_excludes.ai, ai_excludes.pattern");
  EXPECT_EQ(
      refusal("INSERT INTO dl_qualifier VALUES ('01', 1, 1, '10'); INSERT INTO dl_qualifier VALUES ('01', 1, 2, '10')"),
      "statement: UNIQUE constraint failed: dl_qualifier.primary_key, dl_qualifier.sequence_no, "
      "dl_qualifier.qualifier_ai");
}

}  // namespace
}  // namespace codepayload
