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
//
// One runner, two database APIs: it speaks to a MigrationConnection. The
// sqlite3 forms below wrap a raw connection (the rule database);
// db/poco_migrations.h wraps a Poco::Data::Session (the client registry).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "db/db_error.h"

namespace codepayload {

struct Migration {
  int version = 0;       // 1 for 0001_rules.sql
  std::string fileName;  // "0001_rules.sql"
  std::filesystem::path path;

  bool operator==(const Migration&) const = default;
};

// A row of schema_migrations.
struct RecordedMigration {
  std::int64_t version = 0;
  std::string name;

  bool operator==(const RecordedMigration&) const = default;
};

// The SQL of the runner that differs between databases.
struct MigrationDialect {
  const char* createMigrationsTable;  // CREATE TABLE IF NOT EXISTS schema_migrations ...
  const char* migrationsTableExists;  // a query with a row when schema_migrations exists
  const char* beginWrite;             // starts a transaction that holds the write lock
};

// SQLite: STRICT table, sqlite_schema, BEGIN IMMEDIATE.
extern const MigrationDialect kSqliteMigrationDialect;

// PostgreSQL: BIGINT version, to_regclass, and a transaction-scoped advisory
// lock in place of SQLite's database-wide write lock.
// Its createMigrationsTable and beginWrite are several statements in one
// string: the connection must run them as one script (libpq's PQexec).
extern const MigrationDialect kPostgresqlMigrationDialect;

// The portable SQL of the runner, run by every MigrationConnection.
inline constexpr const char* kSelectRecordedMigrations = "SELECT version, name FROM schema_migrations ORDER BY version";
inline constexpr const char* kInsertRecordedMigration =
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)";

// What the runner needs of a database connection. Every failure throws
// DbError("<what>: <the database's message>").
class MigrationConnection {
 public:
  virtual ~MigrationConnection() = default;

  virtual const MigrationDialect& dialect() const = 0;
  // Runs SQL without parameters that returns no rows: one or more statements.
  virtual void execute(const std::string& sql, std::string_view what) = 0;
  // Whether `sql` (no parameters) returns at least one row.
  virtual bool returnsRow(const std::string& sql, std::string_view what) = 0;
  // kSelectRecordedMigrations.
  virtual std::vector<RecordedMigration> recorded(std::string_view what) = 0;
  // kInsertRecordedMigration.
  virtual void record(const RecordedMigration& migration, const std::string& appliedAt, std::string_view what) = 0;
  // Rolls back the open transaction; never throws (a broken connection
  // reports itself on its next statement).
  virtual void rollback() noexcept = 0;
};

// The migrations in `dir`, by version. Throws DbError for a missing folder, a
// .sql file with a bad name, a duplicate or a missing number.
std::vector<Migration> listMigrations(const std::filesystem::path& dir);

// Applies every migration in `dir` the database has not recorded yet, in
// order, each in its own transaction. Throws DbError (nothing of the failing
// migration stays applied).
void applyMigrations(MigrationConnection& connection, const std::filesystem::path& dir);
void applyMigrations(sqlite3* db, const std::filesystem::path& dir);

// The highest recorded version; 0 for a database without schema_migrations.
int schemaVersion(MigrationConnection& connection);
int schemaVersion(sqlite3* db);

}  // namespace codepayload
