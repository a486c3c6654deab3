#include "db/migrations.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

#include "db/sqlite_connection.h"

namespace codepayload {

namespace {

constexpr const char* kCreateMigrationsTable =
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY CHECK (version >= 1),"
    " name TEXT NOT NULL,"
    " applied_at TEXT NOT NULL"
    ") STRICT";

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

// The file name recorded for `version`, or empty when none is.
std::string recordedName(sqlite3* db, int version) {
  sqlite::Statement query(db, "SELECT name FROM schema_migrations WHERE version = ?");
  query.bind(1, std::int64_t{version});
  return query.step() ? std::string(query.text(0)) : std::string();
}

void checkRecordedAgainstFolder(sqlite3* db, const std::vector<Migration>& known, const std::filesystem::path& dir) {
  sqlite::Statement recorded(db, "SELECT version, name FROM schema_migrations ORDER BY version");
  while (recorded.step()) {
    const std::int64_t version = recorded.integer(0);
    const std::string_view name = recorded.text(1);
    if (version < 1 || version > static_cast<std::int64_t>(known.size())) {
      throw DbError("database schema version " + std::to_string(version) + " (" + std::string(name) +
                    ") is newer than the migrations in " + dir.string() + " (up to " +
                    std::to_string(known.size()) + "); refusing to use it");
    }
    const Migration& migration = known[static_cast<std::size_t>(version - 1)];
    if (migration.fileName != name) {
      throw DbError("database recorded migration " + std::to_string(version) + " as \"" + std::string(name) +
                    "\" but " + dir.string() + " has \"" + migration.fileName + "\"");
    }
  }
}

void applyOne(sqlite3* db, const Migration& migration) {
  const std::string sql = readWholeFile(migration.path);
  sqlite::execute(db, "BEGIN IMMEDIATE", "starting migration " + migration.fileName);
  try {
    // Another process may have applied it since we looked.
    if (recordedName(db, migration.version).empty()) {
      sqlite::execute(db, sql.c_str(), "applying migration " + migration.fileName);
      sqlite::Statement record(db,
                               "INSERT INTO schema_migrations (version, name, applied_at)"
                               " VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))");
      record.bind(1, std::int64_t{migration.version}).bind(2, migration.fileName).run();
    }
    sqlite::execute(db, "COMMIT", "committing migration " + migration.fileName);
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

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
  std::sort(migrations.begin(), migrations.end(),
            [](const Migration& a, const Migration& b) {
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

int schemaVersion(sqlite3* db) {
  sqlite::Statement exists(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'");
  if (!exists.step()) return 0;
  sqlite::Statement version(db, "SELECT coalesce(max(version), 0) FROM schema_migrations");
  version.step();
  return static_cast<int>(version.integer(0));
}

void applyMigrations(sqlite3* db, const std::filesystem::path& dir) {
  const std::vector<Migration> known = listMigrations(dir);
  sqlite::execute(db, kCreateMigrationsTable, "creating schema_migrations");
  checkRecordedAgainstFolder(db, known, dir);
  for (const Migration& migration : known) {
    if (recordedName(db, migration.version).empty()) applyOne(db, migration);
  }
}

}  // namespace codepayload
