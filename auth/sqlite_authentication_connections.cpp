#include "auth/sqlite_authentication_connections.h"

#include <functional>
#include <thread>
#include <utility>

#include "auth/registry_session.h"

namespace codepayload::auth {

Poco::Data::Session& SqliteAuthenticationConnections::Connection::session() {
  if (!session_) session_.emplace(openRegistrySession(databaseFile_));
  return *session_;
}

SqliteAuthenticationQuery& SqliteAuthenticationConnections::Connection::query() {
  if (query_ == nullptr) query_ = std::make_unique<SqliteAuthenticationQuery>(session(), sql_);
  return *query_;
}

SqliteAuthenticationConnections::SqliteAuthenticationConnections(std::filesystem::path databaseFile, const char* sql)
    : databaseFile_(std::move(databaseFile)) {
  connections_.reserve(kCount);
  for (std::size_t index = 0; index < kCount; ++index) {
    connections_.push_back(std::make_unique<Connection>(databaseFile_, sql));
  }
}

SqliteAuthenticationConnections::Lease SqliteAuthenticationConnections::lease() {
  // Threads start at different connections, so that they rarely try the same
  // one first.
  const std::size_t first = std::hash<std::thread::id>{}(std::this_thread::get_id()) % kCount;
  for (std::size_t step = 0; step < kCount; ++step) {
    Connection& connection = *connections_[(first + step) % kCount];
    if (connection.mutex.try_lock()) return Lease(connection);
  }
  Connection& chosen = *connections_[first];
  chosen.mutex.lock();
  return Lease(chosen);
}

}  // namespace codepayload::auth
