#include "db/sqlite_connection.h"

namespace codepayload::sqlite {

void fail(sqlite3* db, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += db != nullptr ? sqlite3_errmsg(db) : "out of memory";
  throw DbError(message);
}

bool configureProcess() {
  static const bool configured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
  return configured;
}

Connection::Connection(const std::filesystem::path& path, Mode mode) {
  configureProcess();
  const int flags = mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = "cannot open database " + path.string() + ": ";
    message += db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw DbError(message);
  }
  sqlite3_extended_result_codes(db_, 1);
  try {
    execute(db_, "PRAGMA foreign_keys = ON", "enabling foreign keys");
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

Connection::~Connection() {
  if (db_ != nullptr) sqlite3_close(db_);
}

void Connection::close() {
  if (db_ == nullptr) return;
  if (sqlite3_close(db_) != SQLITE_OK) fail(db_, "closing the database");
  db_ = nullptr;
}

void execute(sqlite3* db, const char* sql, std::string_view what) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message(what);
    message += ": ";
    message += error != nullptr ? error : sqlite3_errmsg(db);
    sqlite3_free(error);
    throw DbError(message);
  }
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db), sql_(sql) {
  if (sqlite3_prepare_v2(db_, sql_.data(), static_cast<int>(sql_.size()), &stmt_, nullptr) != SQLITE_OK) {
    fail(db_, "preparing \"" + sql_ + "\"");
  }
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int index, std::string_view text) {
  if (sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT) != SQLITE_OK) {
    fail(db_, "binding parameter " + std::to_string(index) + " of \"" + sql_ + "\"");
  }
  return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) {
    fail(db_, "binding parameter " + std::to_string(index) + " of \"" + sql_ + "\"");
  }
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_, "running \"" + sql_ + "\"");
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string_view Statement::text(int column) const {
  const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (data == nullptr) return {};
  return {data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(stmt_, column); }

bool Statement::isNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

}  // namespace codepayload::sqlite
