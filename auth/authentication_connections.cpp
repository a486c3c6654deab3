#include "auth/authentication_connections.h"

#include <functional>
#include <thread>
#include <utility>

#include "auth/registry_database.h"

namespace codepayload::auth {

Poco::Data::Session& AuthenticationConnections::Connection::session() {
  if (!session_) {
    session_.emplace(openRegistrySession(database_));
  } else {
    reconnectIfBroken(*session_);
  }
  return *session_;
}

AuthenticationQuery& AuthenticationConnections::Connection::query() {
  if (query_ == nullptr) query_ = prepareAuthenticationQuery(session(), sql_);
  return *query_;
}

AuthenticationConnections::AuthenticationConnections(RegistryDatabase database, const char* sql)
    : database_(std::move(database)) {
  connections_.reserve(kCount);
  for (std::size_t index = 0; index < kCount; ++index) {
    connections_.push_back(std::make_unique<Connection>(database_, sql));
  }
}

AuthenticationConnections::Lease AuthenticationConnections::lease() {
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
