// The connections the token endpoint's lookups run on. Every other registry
// call shares the registry's one connection under one lock; the token
// endpoint's lookup has kCount connections of its own to the same database
// (SQLite's WAL, PostgreSQL's MVCC: readers never wait for each other or for a
// writer), each with the authentication query prepared and its own lock.
//
// Why: with one lock, request threads outnumbering the cores queue behind a
// holder the scheduler preempted in the middle of its query, and a core stays
// idle (docs/performance.md section 11). A lookup takes
// the first free connection, starting at one chosen by its thread, and waits
// only when all are busy.
#pragma once

#include <Poco/Data/Session.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "auth/authentication_query.h"
#include "auth/registry_database.h"

namespace codepayload::auth {

class AuthenticationConnections {
 public:
  static constexpr std::size_t kCount = 8;

  // One connection, opened and its query prepared on first use (a registry
  // opened by the admin command line makes at most one lookup; and the query
  // names columns that a registry under migration may not have yet).
  class Connection {
   public:
    Connection(const RegistryDatabase& database, const char* sql) : database_(database), sql_(sql) {}

    // The session and the prepared query; the first call opens and prepares.
    // Throws what Poco throws, and RegistryError(Storage) when the query cannot be prepared.
    Poco::Data::Session& session();
    AuthenticationQuery& query();

    std::mutex mutex;
    AuthenticationRow row;  // the row the query reads into, kept for its buffers
    // The id the query looks up in place of an unknown one (sql_client_registry.cpp):
    // found on first use, kept, as client ids are never removed. Empty until found.
    std::string standInClientId;

   private:
    const RegistryDatabase& database_;
    const char* sql_;
    std::optional<Poco::Data::Session> session_;
    std::unique_ptr<AuthenticationQuery> query_;  // after session_: finalized before it closes
  };

  // A connection held for one lookup; unlocked when the lease ends.
  class Lease {
   public:
    explicit Lease(Connection& connection) : connection_(connection), lock_(connection.mutex, std::adopt_lock) {}
    Connection& operator*() const { return connection_; }
    Connection* operator->() const { return &connection_; }

   private:
    Connection& connection_;
    std::unique_lock<std::mutex> lock_;
  };

  // kCount connections to `database` for `sql` (a static string), not yet opened.
  AuthenticationConnections(RegistryDatabase database, const char* sql);

  // A free connection, or, when every one is busy, the calling thread's own
  // choice once it is released.
  Lease lease();

 private:
  RegistryDatabase database_;
  std::vector<std::unique_ptr<Connection>> connections_;
};

}  // namespace codepayload::auth
