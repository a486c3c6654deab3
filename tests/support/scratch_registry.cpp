#include "tests/support/scratch_registry.h"

#include <Poco/Data/LOB.h>
#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/Exception.h>
#include <Poco/Nullable.h>
#include <sqlite3.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "db/db_error.h"
#include "db/poco_migrations.h"
#include "tests/support/scratch_postgresql.h"

namespace codepayload::testing {

namespace {

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

// The process's scratch cluster, made on first use and stopped by the
// static's destructor when the process ends.
ScratchPostgresql& processCluster() {
  static std::once_flag started;
  static std::unique_ptr<ScratchPostgresql> cluster;
  std::call_once(started, [] { cluster = std::make_unique<ScratchPostgresql>(); });
  return *cluster;
}

void updateOneClient(const auth::RegistryDatabase& database, const std::string& clientId, const std::string& sql,
                     const Poco::Data::AbstractBinding::Ptr& value) {
  Poco::Data::Session session = auth::openRegistrySession(database);
  Poco::Data::Statement update(session);
  update << sql, value, bind(clientId);
  if (update.execute() != 1) throw std::runtime_error("no client " + clientId + " in " + database.name);
}

}  // namespace

RegistryBackend registryBackendUnderTest() {
  const char* configured = std::getenv("CODEPAYLOAD_TEST_REGISTRY");
  const std::string backend = configured != nullptr ? configured : "sqlite";
  if (backend == "sqlite") return RegistryBackend::Sqlite;
  if (backend == "postgresql") return RegistryBackend::Postgresql;
  throw std::runtime_error("CODEPAYLOAD_TEST_REGISTRY is \"" + backend + "\": sqlite or postgresql");
}

auth::RegistryDatabase freshRegistryDatabase(const std::filesystem::path& dir) {
  if (registryBackendUnderTest() == RegistryBackend::Sqlite) {
    return auth::RegistryDatabase::sqlite(dir / "registry.db");
  }
  static std::atomic<int> made{0};
  ScratchPostgresql& cluster = processCluster();
  const std::string name = "registry_" + std::to_string(++made);
  cluster.createDatabase(name);
  return auth::RegistryDatabase::postgresql(
      cluster.connectionString(name),
      "postgresql://" + cluster.user() + "@127.0.0.1:" + std::to_string(cluster.port()) + "/" + name);
}

std::string rawSql(const auth::RegistryDatabase& database, const std::string& sql) {
  if (database.kind == auth::RegistryDatabase::Kind::Postgresql) {
    try {
      Poco::Data::Session session = auth::openRegistrySession(database);
      executePostgresqlScript(session, sql, "raw SQL");
      return "";
    } catch (const DbError& error) {
      const std::string message = error.what();  // "raw SQL: <PostgreSQL's message>"
      return message.substr(message.find(": ") + 2);
    }
  }
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(database.file.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return "cannot open";
  }
  sqlite3_busy_timeout(db, 5000);
  char* message = nullptr;
  std::string result;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) result = message ? message : "error";
  sqlite3_free(message);
  sqlite3_close(db);
  return result;
}

std::string rawColumn(const auth::RegistryDatabase& database, const std::string& sql) {
  Poco::Data::Session session = auth::openRegistrySession(database);
  std::vector<Poco::Nullable<std::string>> values;
  session << sql, into(values), now;
  std::string joined;
  for (const Poco::Nullable<std::string>& value : values) {
    if (!joined.empty()) joined.push_back('|');
    joined += value.isNull() ? "NULL" : value.value();
  }
  return joined;
}

std::string zeroBytesSql(const auth::RegistryDatabase& database, std::size_t size) {
  if (database.kind == auth::RegistryDatabase::Kind::Sqlite) return "zeroblob(" + std::to_string(size) + ")";
  return "'\\x" + std::string(2 * size, '0') + "'::bytea";
}

void storeScopesBehindTheRegistry(const auth::RegistryDatabase& database, const std::string& clientId,
                                  const std::string& scopes) {
  updateOneClient(database, clientId, "UPDATE api_clients SET scopes = $1 WHERE id = $2", bind(scopes));
}

void storeSecretDigestBehindTheRegistry(const auth::RegistryDatabase& database, const std::string& clientId,
                                        const auth::SecretDigest& digest) {
  const Poco::Data::BLOB blob(digest.data(), digest.size());
  updateOneClient(database, clientId, "UPDATE api_clients SET secret_digest = $1 WHERE id = $2", bind(blob));
}

}  // namespace codepayload::testing
