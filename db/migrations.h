// A small, generic schema migration runner, shared by the rule database
// (db/rules/) and the client registry (db/registry/).
//
// A migration folder holds files named NNNN_<name>.sql (four digits, then
// lowercase letters, digits or '_'), numbered 0001, 0002, ... without gaps.
// Other files in the folder are ignored. Each file is plain SQL without
// transaction statements: the runner wraps every file in its own transaction
// and records it in the table
//
//   schema_migrations(version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)
//
// so a re-run applies only what is new. A database that recorded a version
// the folder does not have (written by a newer program), or whose recorded
// file name differs from the folder's, is refused and left unchanged.
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "db/db_error.h"

namespace codepayload {

struct Migration {
  int version = 0;              // 1 for 0001_rules.sql
  std::string fileName;         // "0001_rules.sql"
  std::filesystem::path path;

  bool operator==(const Migration&) const = default;
};

// The migrations in `dir`, by version. Throws DbError for a missing folder, a
// .sql file with a bad name, a duplicate or a missing number.
std::vector<Migration> listMigrations(const std::filesystem::path& dir);

// Applies every migration in `dir` the database has not recorded yet, in
// order, each in its own transaction. Throws DbError (nothing of the failing
// migration stays applied).
void applyMigrations(sqlite3* db, const std::filesystem::path& dir);

// The highest recorded version; 0 for a database without schema_migrations.
int schemaVersion(sqlite3* db);

}  // namespace codepayload
