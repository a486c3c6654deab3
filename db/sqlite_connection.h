// Thin RAII wrappers over the sqlite3 C API: a connection and a prepared
// statement. Every failure throws DbError with SQLite's own message and what
// was being done. Used by the migration runner and the rule store only.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "db/db_error.h"

namespace codepayload::sqlite {

// SQLite's process-wide settings, applied on the first call when SQLite has
// not been used yet (codepayload-server calls it first thing; the Connection
// below and the registry's Poco sessions call it too): memory statistics off
// (SQLITE_CONFIG_MEMSTATUS). With them on, every allocation of every
// connection takes one global mutex; the request threads reading the registry
// queued on it (docs/performance.md section 11). SQLite advises the same for
// its builds (SQLITE_DEFAULT_MEMSTATUS=0). Returns whether the settings are in
// effect: false when SQLite was already in use (a speed setting only: nothing
// else changes).
bool configureProcess();

class Connection {
 public:
  enum class Mode { ReadOnly, ReadWriteCreate };

  // Opens `path`; ReadOnly never creates a file. Foreign keys are switched on.
  Connection(const std::filesystem::path& path, Mode mode);
  ~Connection();

  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* handle() const { return db_; }

  // Closes now and reports a failure (the destructor closes silently).
  void close();

 private:
  sqlite3* db_ = nullptr;
};

// Runs one or more SQL statements that return no rows; `what` names the step
// for the error message.
void execute(sqlite3* db, const char* sql, std::string_view what);

// "<what>: <sqlite message>" as a DbError.
[[noreturn]] void fail(sqlite3* db, std::string_view what);

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();

  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters count from 1, as in SQLite.
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, std::int64_t value);

  // Advances: true when a row is available, false when the statement is done.
  bool step();
  // Runs a statement that returns no rows, then resets it for the next binding.
  void run();
  void reset();

  // Columns count from 0, as in SQLite. The view lives until the next step.
  std::string_view text(int column) const;
  std::int64_t integer(int column) const;
  bool isNull(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
};

}  // namespace codepayload::sqlite
