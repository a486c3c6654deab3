#include "tests/robustness/registry_file.h"

#include <memory>
#include <stdexcept>

namespace codepayload::robustness {

namespace {

struct CloseDatabase {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using Database = std::unique_ptr<sqlite3, CloseDatabase>;

Database open(const std::filesystem::path& database, int flags) {
  sqlite3* db = nullptr;
  const int result = sqlite3_open_v2(database.c_str(), &db, flags, nullptr);
  Database owned(db);
  if (result != SQLITE_OK) {
    throw std::runtime_error("cannot open " + database.string() + ": " + sqlite3_errstr(result));
  }
  sqlite3_busy_timeout(db, 5000);
  return owned;
}

// The first column of the first row of `sql`, as text.
std::string firstValue(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    throw std::runtime_error(sql + ": " + sqlite3_errmsg(db));
  }
  std::string value;
  const int step = sqlite3_step(statement);
  if (step == SQLITE_ROW) {
    const unsigned char* text = sqlite3_column_text(statement, 0);
    if (text != nullptr) value = reinterpret_cast<const char*>(text);
  }
  sqlite3_finalize(statement);
  if (step != SQLITE_ROW && step != SQLITE_DONE) throw std::runtime_error(sql + ": " + sqlite3_errstr(step));
  return value;
}

void execute(sqlite3* db, const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string reason = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    throw std::runtime_error(sql + ": " + reason);
  }
}

}  // namespace

std::string journalMode(const std::filesystem::path& database) {
  return firstValue(open(database, SQLITE_OPEN_READONLY).get(), "PRAGMA journal_mode");
}

std::string integrityCheck(const std::filesystem::path& database) {
  return firstValue(open(database, SQLITE_OPEN_READONLY).get(), "PRAGMA integrity_check");
}

std::int64_t incompleteClients(const std::filesystem::path& database) {
  return std::stoll(firstValue(open(database, SQLITE_OPEN_READONLY).get(),
                               "SELECT count(*) FROM api_clients c"
                               " WHERE NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = c.organization_id)"
                               " OR c.scopes = ''"
                               " OR (c.state <> 'deleted' AND (c.secret_digest IS NULL"
                               " OR length(c.secret_digest) <> 32))"));
}

RegistryWriteLock::RegistryWriteLock(const std::filesystem::path& database) {
  db_ = open(database, SQLITE_OPEN_READWRITE).release();
  try {
    execute(db_, "BEGIN IMMEDIATE");
  } catch (...) {
    sqlite3_close_v2(db_);
    throw;
  }
}

RegistryWriteLock::~RegistryWriteLock() {
  sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close_v2(db_);
}

}  // namespace codepayload::robustness
