#include "db/poco_migrations.h"

#include <Poco/Data/Statement.h>
#include <Poco/Exception.h>

#include <Poco/Data/PostgreSQL/Connector.h>
#include <Poco/Data/PostgreSQL/SessionImpl.h>
#include <libpq-fe.h>

#include <string>
#include <vector>

namespace codepayload {

namespace {

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;
using Poco::Data::Keywords::use;
using Poco::Data::Keywords::useRef;

[[noreturn]] void fail(std::string_view what, const Poco::Exception& error) {
  throw DbError(std::string(what) + ": " + databaseMessageOf(error));
}

// PostgreSQL's own words in libpq's message: "ERROR:  <message>\nLINE 1:
// ...\nDETAIL: ..." becomes "<message>"; a message without "ERROR:" (a
// connection that failed) keeps its first line.
std::string postgresqlMessage(std::string message) {
  constexpr std::string_view kError = "ERROR:  ";
  if (const std::size_t at = message.find(kError); at != std::string::npos) message.erase(0, at + kError.size());
  if (const std::size_t end = message.find('\n'); end != std::string::npos) message.resize(end);
  while (!message.empty() && message.back() == ' ') message.pop_back();
  return message;
}

}  // namespace

void executePostgresqlScript(Poco::Data::Session& session, const std::string& sql, std::string_view what) {
  auto* impl = dynamic_cast<Poco::Data::PostgreSQL::SessionImpl*>(session.impl());
  if (impl == nullptr) throw DbError(std::string(what) + ": not a PostgreSQL session");
  Poco::Data::PostgreSQL::SessionHandle& handle = impl->handle();
  std::string error;
  {
    Poco::FastMutex::ScopedLock lock(handle.mutex());
    PGconn* connection = handle;
    PGresult* result = PQexec(connection, sql.c_str());
    const ExecStatusType status = result != nullptr ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) error = PQerrorMessage(connection);
    PQclear(result);
    // A script that failed after its own BEGIN leaves a failed transaction
    // open; end it, so the connection is usable (the runner's rollback()
    // after this is then a no-op).
    if (!error.empty() && PQtransactionStatus(connection) == PQTRANS_INERROR) PQclear(PQexec(connection, "ROLLBACK"));
  }
  if (!error.empty()) throw DbError(std::string(what) + ": " + postgresqlMessage(error));
}

void rollbackPostgresql(Poco::Data::Session& session) noexcept {
  auto* impl = dynamic_cast<Poco::Data::PostgreSQL::SessionImpl*>(session.impl());
  if (impl == nullptr) return;
  Poco::Data::PostgreSQL::SessionHandle& handle = impl->handle();
  Poco::FastMutex::ScopedLock lock(handle.mutex());
  PGconn* connection = handle;
  if (PQtransactionStatus(connection) != PQTRANS_IDLE) PQclear(PQexec(connection, "ROLLBACK"));
}
namespace {

class PocoMigrationConnection final : public MigrationConnection {
 public:
  explicit PocoMigrationConnection(Poco::Data::Session& session)
      : session_(session),
        dialect_(migrationDialectOf(session)),
        postgresql_(&dialect_ == &kPostgresqlMigrationDialect) {}

  const MigrationDialect& dialect() const override { return dialect_; }

  void execute(const std::string& sql, std::string_view what) override {
    if (postgresql_) return executePostgresqlScript(session_, sql, what);
    try {
      session_ << sql, now;
    } catch (const Poco::Exception& error) {
      fail(what, error);
    }
  }

  bool returnsRow(const std::string& sql, std::string_view what) override {
    try {
      Poco::Data::Statement statement(session_);
      statement << sql;
      return statement.execute() > 0;
    } catch (const Poco::Exception& error) {
      fail(what, error);
    }
  }

  std::vector<RecordedMigration> recorded(std::string_view what) override {
    try {
      std::vector<Poco::Int64> versions;
      std::vector<std::string> names;
      session_ << kSelectRecordedMigrations, into(versions), into(names), now;
      std::vector<RecordedMigration> rows;
      rows.reserve(versions.size());
      for (std::size_t row = 0; row < versions.size(); ++row)
        rows.push_back(RecordedMigration{versions[row], names[row]});
      return rows;
    } catch (const Poco::Exception& error) {
      fail(what, error);
    }
  }

  void record(const RecordedMigration& migration, const std::string& appliedAt, std::string_view what) override {
    try {
      Poco::Int64 version = migration.version;
      session_ << kInsertRecordedMigration, use(version), useRef(migration.name), useRef(appliedAt), now;
    } catch (const Poco::Exception& error) {
      fail(what, error);
    }
  }

  void rollback() noexcept override {
    if (postgresql_) return rollbackPostgresql(session_);
    try {
      session_ << "ROLLBACK", now;
    } catch (...) {
      // The connection is broken; its next statement reports it.
    }
  }

 private:
  Poco::Data::Session& session_;
  const MigrationDialect& dialect_;
  const bool postgresql_;
};

}  // namespace

std::string databaseMessageOf(const Poco::Exception& error) {
  std::string message = error.message();
  // Poco's PostgreSQL connector: "[PostgreSQL]: <its step> error: <libpq's message>".
  constexpr std::string_view kPostgresqlPrefix = "[PostgreSQL]: ";
  if (message.starts_with(kPostgresqlPrefix)) return postgresqlMessage(message.substr(kPostgresqlPrefix.size()));
  const std::size_t half = message.size() >= 2 ? (message.size() - 2) / 2 : 0;
  if (half > 0 && message.size() == 2 * half + 2 && message.compare(half, 2, ": ") == 0 &&
      message.compare(0, half, message, half + 2, half) == 0) {
    message.resize(half);
  }
  // libpq's connection failures add a hint line ("\tIs the server running...").
  if (const std::size_t end = message.find('\n'); end != std::string::npos) message.resize(end);
  return message;
}

const MigrationDialect& migrationDialectOf(const Poco::Data::Session& session) {
  const std::string connector = session.connector();
  if (connector == "sqlite") return kSqliteMigrationDialect;
  if (connector == Poco::Data::PostgreSQL::Connector::KEY) return kPostgresqlMigrationDialect;
  throw DbError("the migration runner has no SQL dialect for the Poco::Data connector \"" + connector + "\"");
}

void applyMigrations(Poco::Data::Session& session, const std::filesystem::path& dir) {
  PocoMigrationConnection connection(session);
  applyMigrations(connection, dir);
}

int schemaVersion(Poco::Data::Session& session) {
  PocoMigrationConnection connection(session);
  return schemaVersion(connection);
}

}  // namespace codepayload
