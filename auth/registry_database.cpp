#include "auth/registry_database.h"

#include <Poco/Data/PostgreSQL/Connector.h>
#include <Poco/Data/PostgreSQL/SessionImpl.h>
#include <libpq-fe.h>
#include <Poco/Data/SQLite/Connector.h>

#include <mutex>

#include "db/db_error.h"
#include "db/file_modes.h"
#include "db/sqlite_connection.h"

namespace codepayload::auth {

namespace {

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

constexpr std::size_t kBusyTimeoutSeconds = 5;
constexpr std::size_t kConnectTimeoutSeconds = 5;

// Every writer of the registry takes this lock for its transaction, on one
// fixed key ("gs1_regw" in ASCII) used for nothing else (the migration
// runner's is "gs1_migr").
constexpr const char* kPostgresqlBeginWrite = "BEGIN; SELECT pg_advisory_xact_lock(7454356094239205239)";

// A lock held longer than the SQLite busy timeout is a fault, not a wait;
// the name shows the service's connections in pg_stat_activity.
constexpr const char* kPostgresqlSessionSettings = "SET lock_timeout = '5s'; SET application_name = 'codepayload'";

// Connects once with libpq itself and lets go, so that a server that cannot
// be reached or refuses the login is reported here: Poco 1.11's
// SessionHandle::connect throws on a failed PQconnectdb without PQfinish, and
// every failed attempt through it would leak the connection's memory. Throws
// Poco::Data::ConnectionFailedException with Poco's words for the failure.
void requireReachable(const std::string& connectionString) {
  const std::string withTimeout =
      connectionString + " connect_timeout=" + std::to_string(kConnectTimeoutSeconds);
  PGconn* probe = PQconnectdb(withTimeout.c_str());
  const bool reached = probe != nullptr && PQstatus(probe) == CONNECTION_OK;
  const std::string error = probe != nullptr ? PQerrorMessage(probe) : "out of memory";
  PQfinish(probe);
  if (!reached) throw Poco::Data::ConnectionFailedException("Connection Error: " + error);
}

bool isPostgresql(const Poco::Data::Session& session) {
  return session.connector() == Poco::Data::PostgreSQL::Connector::KEY;
}

}  // namespace

RegistryDatabase RegistryDatabase::sqlite(const std::filesystem::path& file) {
  RegistryDatabase database;
  database.kind = Kind::Sqlite;
  database.file = std::filesystem::absolute(file).lexically_normal();
  database.name = database.file.string();
  return database;
}

RegistryDatabase RegistryDatabase::postgresql(std::string connectionString, std::string name) {
  RegistryDatabase database;
  database.kind = Kind::Postgresql;
  database.connectionString = std::move(connectionString);
  database.name = std::move(name);
  return database;
}

void registerRegistryConnectors() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    sqlite::configureProcess();
    Poco::Data::SQLite::Connector::registerConnector();
    Poco::Data::PostgreSQL::Connector::registerConnector();
  });
}

Poco::Data::Session openRegistrySession(const RegistryDatabase& database) {
  registerRegistryConnectors();
  if (database.kind == RegistryDatabase::Kind::Postgresql) {
    requireReachable(database.connectionString);
    Poco::Data::Session session(Poco::Data::PostgreSQL::Connector::KEY, database.connectionString,
                                kConnectTimeoutSeconds);
    try {
      executePostgresqlScript(session, kPostgresqlSessionSettings, "configuring the connection");
    } catch (const DbError& error) {
      throw Poco::Data::DataException(error.what());
    }
    return session;
  }
  Poco::Data::Session session(Poco::Data::SQLite::Connector::KEY, database.file.string());
  session.setConnectionTimeout(kBusyTimeoutSeconds);  // sqlite3_busy_timeout
  std::string journalMode;
  session << "PRAGMA journal_mode = WAL", into(journalMode), now;
  session << "PRAGMA foreign_keys = ON", now;
  session << "PRAGMA synchronous = FULL", now;
  return session;
}

Poco::Data::Session openMigratedRegistrySession(const RegistryDatabase& database,
                                                const std::filesystem::path& registryMigrations) {
  const bool postgresql = database.kind == RegistryDatabase::Kind::Postgresql;
  if (!postgresql) {
    try {
      // Installs before D-S4 wrote it 0644, and SQLite gives -wal and -shm
      // the database file's mode.
      filemodes::prepareOwnerOnlyDatabase(database.file);
    } catch (const filemodes::FileModeError& error) {
      throw RegistryOpenError("registry database: " + std::string(error.what()));
    }
  }
  std::optional<Poco::Data::Session> session;
  try {
    session.emplace(openRegistrySession(database));
  } catch (const Poco::Exception& error) {
    throw RegistryOpenError("cannot open the registry database " + database.name + ": " + databaseMessageOf(error));
  }
  try {
    applyMigrations(*session, postgresql ? registryMigrations / "postgresql" : registryMigrations);
  } catch (const Poco::Exception& error) {
    throw RegistryOpenError("cannot migrate the registry database " + database.name + ": " + databaseMessageOf(error));
  } catch (const DbError& error) {
    throw RegistryOpenError("cannot migrate the registry database " + database.name + ": " + error.what());
  }
  return std::move(*session);
}

void reconnectIfBroken(Poco::Data::Session& session) noexcept {
  auto* impl = dynamic_cast<Poco::Data::PostgreSQL::SessionImpl*>(session.impl());
  if (impl == nullptr) return;
  Poco::Data::PostgreSQL::SessionHandle& handle = impl->handle();
  {
    Poco::FastMutex::ScopedLock lock(handle.mutex());
    PGconn* connection = handle;
    if (connection == nullptr || PQstatus(connection) == CONNECTION_OK) return;
    PQreset(connection);
    if (PQstatus(connection) != CONNECTION_OK) return;
  }
  try {
    executePostgresqlScript(session, kPostgresqlSessionSettings, "configuring the connection");
  } catch (const DbError&) {
    // The server went again; the work that follows reports it.
  }
}

WriteTransaction::WriteTransaction(Poco::Data::Session& session) : session_(session) {
  if (!isPostgresql(session_)) {
    session_ << "BEGIN IMMEDIATE", now;
    return;
  }
  try {
    executePostgresqlScript(session_, kPostgresqlBeginWrite, "starting a write transaction");
  } catch (const DbError& error) {
    throw Poco::Data::DataException(error.what());
  }
}

WriteTransaction::~WriteTransaction() {
  if (committed_) return;
  if (isPostgresql(session_)) {
    rollbackPostgresql(session_);
    return;
  }
  try {
    session_ << "ROLLBACK", now;
  } catch (...) {
    // The connection is already broken; the next statement reports it.
  }
}

void WriteTransaction::commit() {
  session_ << "COMMIT", now;
  committed_ = true;
}

}  // namespace codepayload::auth
