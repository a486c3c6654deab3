#include "auth/registry_session.h"

#include <Poco/Data/SQLite/Connector.h>

#include <mutex>

#include "db/sqlite_connection.h"

namespace codepayload::auth {

namespace {

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

constexpr std::size_t kBusyTimeoutSeconds = 5;

}  // namespace

const char* const kBeginWriteTransaction = "BEGIN IMMEDIATE";

void registerSqliteConnector() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    sqlite::configureProcess();
    Poco::Data::SQLite::Connector::registerConnector();
  });
}

Poco::Data::Session openRegistrySession(const std::filesystem::path& databaseFile) {
  registerSqliteConnector();
  Poco::Data::Session session(Poco::Data::SQLite::Connector::KEY, databaseFile.string());
  session.setConnectionTimeout(kBusyTimeoutSeconds);  // sqlite3_busy_timeout
  std::string journalMode;
  session << "PRAGMA journal_mode = WAL", into(journalMode), now;
  session << "PRAGMA foreign_keys = ON", now;
  session << "PRAGMA synchronous = FULL", now;
  return session;
}

WriteTransaction::WriteTransaction(Poco::Data::Session& session) : session_(session) {
  session_ << kBeginWriteTransaction, now;
}

WriteTransaction::~WriteTransaction() {
  if (committed_) return;
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
