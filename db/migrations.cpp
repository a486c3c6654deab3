#include "db/migrations.h"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

#include "common/utc_time.h"
#include "db/sqlite_connection.h"

namespace codepayload {

const MigrationDialect kSqliteMigrationDialect{
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY CHECK (version >= 1),"
    " name TEXT NOT NULL,"
    " applied_at TEXT NOT NULL"
    ") STRICT",
    "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'",
    "BEGIN IMMEDIATE",
};

// Only one instance migrates at a time: each holds a transaction-scoped
// advisory lock, on one fixed key ("gs1_migr" in ASCII) used for nothing else.
// createMigrationsTable takes it too: two instances starting at once on an
// empty database would otherwise race in CREATE TABLE IF NOT EXISTS, which
// PostgreSQL does not make safe. Sent as one simple query without BEGIN, its
// two statements are one implicit transaction, which holds the lock to its end.
const MigrationDialect kPostgresqlMigrationDialect{
    "SELECT pg_advisory_xact_lock(7454356094155581298);"
    // Without the notice "relation already exists, skipping" on every start.
    " SET LOCAL client_min_messages = warning;"
    " CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version BIGINT PRIMARY KEY CHECK (version >= 1),"
    " name TEXT NOT NULL,"
    " applied_at TEXT NOT NULL"
    ")",
    "SELECT 1 WHERE to_regclass('schema_migrations') IS NOT NULL",
    "BEGIN; SELECT pg_advisory_xact_lock(7454356094155581298)",
};

namespace {

// "0001_rules.sql" -> 1; 0 when the name is not NNNN_<name>.sql.
int versionFromFileName(const std::string& name) {
  constexpr std::string_view kSuffix = ".sql";
  if (name.size() <= 5 + kSuffix.size() || !name.ends_with(kSuffix) || name[4] != '_') return 0;
  int version = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    if (name[i] < '0' || name[i] > '9') return 0;
    version = version * 10 + (name[i] - '0');
  }
  for (std::size_t i = 5; i < name.size() - kSuffix.size(); ++i) {
    const char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return 0;
  }
  return version;
}

std::string readWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DbError("cannot read migration " + path.string());
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw DbError("cannot read migration " + path.string());
  return std::move(content).str();
}

// "2026-11-23T22:50:53Z": when a migration was applied (UTC).
std::string utcNow() { return common::utcSecondsText(std::time(nullptr)); }

bool isRecorded(const std::vector<RecordedMigration>& recorded, int version) {
  return std::any_of(recorded.begin(), recorded.end(),
                     [version](const RecordedMigration& row) { return row.version == version; });
}

void checkRecordedAgainstFolder(const std::vector<RecordedMigration>& recorded, const std::vector<Migration>& known,
                                const std::filesystem::path& dir) {
  for (const RecordedMigration& row : recorded) {
    if (row.version < 1 || row.version > static_cast<std::int64_t>(known.size())) {
      throw DbError("database schema version " + std::to_string(row.version) + " (" + row.name +
                    ") is newer than the migrations in " + dir.string() + " (up to " + std::to_string(known.size()) +
                    "); refusing to use it");
    }
    const Migration& migration = known[static_cast<std::size_t>(row.version - 1)];
    if (migration.fileName != row.name) {
      throw DbError("database recorded migration " + std::to_string(row.version) + " as \"" + row.name + "\" but " +
                    dir.string() + " has \"" + migration.fileName + "\"");
    }
  }
}

void applyOne(MigrationConnection& connection, const Migration& migration) {
  const std::string sql = readWholeFile(migration.path);
  connection.execute(connection.dialect().beginWrite, "starting migration " + migration.fileName);
  try {
    // Another process may have applied it since we looked.
    if (!isRecorded(connection.recorded("reading schema_migrations"), migration.version)) {
      connection.execute(sql, "applying migration " + migration.fileName);
      connection.record(RecordedMigration{migration.version, migration.fileName}, utcNow(),
                        "recording migration " + migration.fileName);
    }
    connection.execute("COMMIT", "committing migration " + migration.fileName);
  } catch (...) {
    connection.rollback();
    throw;
  }
}

// MigrationConnection over a raw sqlite3 connection.
class SqliteMigrationConnection final : public MigrationConnection {
 public:
  explicit SqliteMigrationConnection(sqlite3* db) : db_(db) {}

  const MigrationDialect& dialect() const override { return kSqliteMigrationDialect; }

  void execute(const std::string& sql, std::string_view what) override { sqlite::execute(db_, sql.c_str(), what); }

  // sqlite::Statement's failures name the SQL itself; `what` is used by
  // execute() only.
  bool returnsRow(const std::string& sql, std::string_view /*what*/) override {
    return sqlite::Statement(db_, sql).step();
  }

  std::vector<RecordedMigration> recorded(std::string_view /*what*/) override {
    sqlite::Statement query(db_, kSelectRecordedMigrations);
    std::vector<RecordedMigration> rows;
    while (query.step()) rows.push_back(RecordedMigration{query.integer(0), std::string(query.text(1))});
    return rows;
  }

  void record(const RecordedMigration& migration, const std::string& appliedAt, std::string_view /*what*/) override {
    sqlite::Statement(db_, kInsertRecordedMigration)
        .bind(1, migration.version)
        .bind(2, migration.name)
        .bind(3, appliedAt)
        .run();
  }

  void rollback() noexcept override { sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); }

 private:
  sqlite3* db_;
};

}  // namespace

std::vector<Migration> listMigrations(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw DbError("migration folder " + dir.string() + " does not exist");
  std::vector<Migration> migrations;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".sql")) continue;
    const int version = versionFromFileName(name);
    if (version == 0) {
      throw DbError("migration file " + entry.path().string() + " is not named NNNN_<name>.sql (NNNN from 0001)");
    }
    migrations.push_back(Migration{version, name, entry.path()});
  }
  if (ec) throw DbError("cannot list migration folder " + dir.string() + ": " + ec.message());
  std::sort(migrations.begin(), migrations.end(), [](const Migration& a, const Migration& b) {
    return a.version != b.version ? a.version < b.version : a.fileName < b.fileName;
  });
  for (std::size_t i = 0; i < migrations.size(); ++i) {
    const int expected = static_cast<int>(i) + 1;
    if (migrations[i].version != expected) {
      const bool duplicate = migrations[i].version == expected - 1;
      throw DbError("migration folder " + dir.string() + ": " +
                    (duplicate ? "two files numbered " + std::to_string(migrations[i].version) + " (" +
                                     migrations[i - 1].fileName + ", " + migrations[i].fileName + ")"
                               : "no file numbered " + std::to_string(expected)));
    }
  }
  if (migrations.empty()) throw DbError("migration folder " + dir.string() + " has no NNNN_<name>.sql files");
  return migrations;
}

int schemaVersion(MigrationConnection& connection) {
  if (!connection.returnsRow(connection.dialect().migrationsTableExists, "looking for schema_migrations")) return 0;
  std::int64_t highest = 0;
  for (const RecordedMigration& row : connection.recorded("reading schema_migrations")) {
    highest = std::max(highest, row.version);
  }
  return static_cast<int>(highest);
}

int schemaVersion(sqlite3* db) {
  SqliteMigrationConnection connection(db);
  return schemaVersion(connection);
}

void applyMigrations(MigrationConnection& connection, const std::filesystem::path& dir) {
  const std::vector<Migration> known = listMigrations(dir);
  connection.execute(connection.dialect().createMigrationsTable, "creating schema_migrations");
  const std::vector<RecordedMigration> recorded = connection.recorded("reading schema_migrations");
  checkRecordedAgainstFolder(recorded, known, dir);
  for (const Migration& migration : known) {
    if (!isRecorded(recorded, migration.version)) applyOne(connection, migration);
  }
}

void applyMigrations(sqlite3* db, const std::filesystem::path& dir) {
  SqliteMigrationConnection connection(db);
  applyMigrations(connection, dir);
}

}  // namespace codepayload
