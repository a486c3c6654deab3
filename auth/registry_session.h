// What every Poco::Data connection to the registry database shares: the
// SQLite connector, the session settings (WAL, foreign keys, full sync, a 5 s
// busy timeout), the write transaction and the guard that turns database
// faults into one error type. SQLite-specific; the client registry
// (auth/sqlite_client_registry.h) and the accounts store
// (accounts/account_store.h) open their connections with it.
#pragma once

#include <Poco/Data/Session.h>
#include <Poco/Exception.h>

#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>

#include "db/poco_migrations.h"

namespace codepayload::auth {

// Registers Poco's SQLite connector once per process.
void registerSqliteConnector();

// A session on `databaseFile` (created when absent; the caller sets its mode
// first, db/file_modes.h), configured as above. Throws what Poco throws.
Poco::Data::Session openRegistrySession(const std::filesystem::path& databaseFile);

// The write transaction's start: "BEGIN IMMEDIATE", which takes SQLite's
// write lock at once (PostgreSQL: BEGIN).
extern const char* const kBeginWriteTransaction;

// kBeginWriteTransaction ... COMMIT, rolled back when left without commit().
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

// registryWork under `mutex` (the connection's lock).
template <typename Error, typename Work>
auto guardedRegistryWork(std::mutex& mutex, std::string_view what, typename Error::Kind storageKind, Work&& work)
    -> decltype(work()) {
  std::lock_guard lock(mutex);
  return registryWork<Error>(what, storageKind, std::forward<Work>(work));
}

}  // namespace codepayload::auth
