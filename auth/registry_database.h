// Where the registry's database is, and what every Poco::Data connection to
// it shares: one SQLite file in the data directory (the default), or one
// PostgreSQL database that several instances share. The stores (the client
// registry, the accounts, the usage counts) speak one SQL to both: $n
// parameters, which SQLite reads too; `rowid`, which the PostgreSQL schema
// keeps as a column of its own (db/registry/postgresql); upserts with ON
// CONFLICT. What differs is here: how a session is opened and configured, the
// write transaction's start, the migrations' folder, and the guard that turns
// database faults into one error type.
#pragma once

#include <Poco/Data/Session.h>
#include <Poco/Exception.h>

#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

#include "db/poco_migrations.h"

namespace codepayload::auth {

struct RegistryDatabase {
  enum class Kind { Sqlite, Postgresql };

  static RegistryDatabase sqlite(const std::filesystem::path& file);
  // `connectionString`: libpq's keyword form, the password included; `name`:
  // what messages call the database (its URL without the password).
  static RegistryDatabase postgresql(std::string connectionString, std::string name);

  Kind kind = Kind::Sqlite;
  std::filesystem::path file;    // Sqlite: the database file
  std::string connectionString;  // Postgresql: never shown
  std::string name;              // the file's absolute path, or the URL without the password
};

// Registers Poco's SQLite and PostgreSQL connectors once per process.
void registerRegistryConnectors();

// A session on `database`, configured: SQLite with WAL, foreign keys, full
// sync and a 5 s busy timeout (the file is created when absent: the caller
// sets its mode first, db/file_modes.h); PostgreSQL with a 5 s connect
// timeout and a 5 s lock timeout. Throws what Poco throws.
Poco::Data::Session openRegistrySession(const RegistryDatabase& database);

// An open or migration failure, with the whole sentence: "cannot open the
// registry database <name>: <why>" or "cannot migrate ...".
struct RegistryOpenError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A session on `database` whose schema the migrations in `registryMigrations`
// (db/registry; PostgreSQL reads its own subfolder, postgresql/) have brought
// up to date; an SQLite file is created owner-only when absent. Instances
// starting together on one PostgreSQL database migrate one at a time (the
// runner's advisory lock). Throws RegistryOpenError.
Poco::Data::Session openMigratedRegistrySession(const RegistryDatabase& database,
                                                const std::filesystem::path& registryMigrations);

// The start of a write transaction, ended by commit() or rolled back when left
// without it. Writes to the registry are serialised, on either database:
// SQLite's BEGIN IMMEDIATE takes the file's write lock at once; on PostgreSQL
// BEGIN then takes a transaction-scoped advisory lock that every writer of
// every instance takes, so a store's read-then-write steps see what they
// would see alone, as on SQLite (docs/decisions.md D-G8).
class WriteTransaction {
 public:
  explicit WriteTransaction(Poco::Data::Session& session);
  ~WriteTransaction();
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;

  void commit();

 private:
  Poco::Data::Session& session_;
  bool committed_ = false;
};

// Runs `work`: an `Error` it throws passes through; a database fault becomes
// Error(storageKind, "registry database, <what>: <Poco's message>"). Each
// store has its own error type. The caller holds the connection's lock.
template <typename Error, typename Work>
auto registryWork(std::string_view what, typename Error::Kind storageKind, Work&& work) -> decltype(work()) {
  try {
    return work();
  } catch (const Error&) {
    throw;
  } catch (const Poco::Exception& error) {
    throw Error(storageKind, "registry database, " + std::string(what) + ": " + databaseMessageOf(error));
  }
}

// A PostgreSQL session whose connection broke (the server restarted, the
// network failed) connects again, with its settings, before the next unit of
// work: the work that met the break failed with it, and the next one finds
// the database again without a restart of the service. Nothing when the
// connection is sound, or on SQLite. Throws nothing: a server still away
// fails the work that follows.
void reconnectIfBroken(Poco::Data::Session& session) noexcept;

// registryWork on `session` under `mutex` (the connection's lock), after
// reconnectIfBroken.
template <typename Error, typename Work>
auto guardedRegistryWork(std::mutex& mutex, Poco::Data::Session& session, std::string_view what,
                         typename Error::Kind storageKind, Work&& work) -> decltype(work()) {
  std::lock_guard lock(mutex);
  reconnectIfBroken(session);
  return registryWork<Error>(what, storageKind, std::forward<Work>(work));
}

}  // namespace codepayload::auth
