// The rule tables (db/rules/*.sql) <-> the in-memory Dictionary. The only
// place that runs SQL on rules; it runs at import and at (re)load time, never
// per request.
#pragma once

#include <sqlite3.h>

#include <filesystem>

#include "db/db_error.h"
#include "engine/dictionary.h"
#include "engine/linter_catalog.h"

namespace codepayload {

// The schema version (number of db/rules migrations) this code reads and writes.
inline constexpr int kRulesSchemaVersion = 1;

// Where the rule migrations live inside a schema folder (db/; app/settings.h finds it).
std::filesystem::path rulesMigrationsDir(const std::filesystem::path& schemaDir);

// Writes `dictionary` into the empty rule tables of `db` in one transaction.
// Each linter is recorded with where `linters` finds it (built in, or a Lua
// file under rulesDir/linters); a linter with no implementation is refused.
// Throws DbError; on failure nothing is written.
void writeRules(sqlite3* db, const Dictionary& dictionary, const LinterCatalog& linters);

// Opens `dbPath` read-only and returns exactly the Dictionary that was written.
// Throws DbError for a missing file, a schema version other than
// kRulesSchemaVersion, or tables that do not hold one release.
Dictionary readRules(const std::filesystem::path& dbPath);

// The release recorded in the rule database at `dbPath`. Throws DbError as
// readRules does.
ReleaseInfo readRulesRelease(const std::filesystem::path& dbPath);

}  // namespace codepayload
