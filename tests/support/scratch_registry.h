// The registry database a test runs on, of the backend the test process was
// started for: CODEPAYLOAD_TEST_REGISTRY=sqlite (the default) or postgresql.
// The registry, auth and accounts suites are one set of tests and two
// parameters: ctest runs them once on each (tests/auth/CMakeLists.txt), the
// PostgreSQL run in one process, so that one scratch cluster serves the suite.
// Also SQL behind the stores' back, for what they must refuse or survive.
#pragma once

#include <filesystem>
#include <string>

#include "auth/registry_database.h"
#include "auth/secret_hasher.h"

namespace codepayload::testing {

enum class RegistryBackend { Sqlite, Postgresql };

// CODEPAYLOAD_TEST_REGISTRY's backend; an unknown value throws.
RegistryBackend registryBackendUnderTest();

// A fresh, empty registry database: registry.db in `dir` (which the test
// owns), or a new database on the process's scratch PostgreSQL 15 (started on
// first use, stopped when the process ends).
auth::RegistryDatabase freshRegistryDatabase(const std::filesystem::path& dir);

// Runs `sql` (one or more statements) on a connection of its own: "" when it
// succeeded, else the database's message.
std::string rawSql(const auth::RegistryDatabase& database, const std::string& sql);

// The first column of every row of `sql` as text ("NULL" for a null), joined
// with '|'; throws when the query fails.
std::string rawColumn(const auth::RegistryDatabase& database, const std::string& sql);

// An SQL literal of `size` zero bytes: zeroblob(n) or '\x00...'::bytea.
std::string zeroBytesSql(const auth::RegistryDatabase& database, std::size_t size);

// Writes a client's column behind the registry's back, as a registry from
// before a rule may hold it or an operator editing the database by hand would:
// its scopes as stored (space-separated, "" for none), its secret digest.
// Throws unless exactly one row changed.
void storeScopesBehindTheRegistry(const auth::RegistryDatabase& database, const std::string& clientId,
                                  const std::string& scopes);
void storeSecretDigestBehindTheRegistry(const auth::RegistryDatabase& database, const std::string& clientId,
                                        const auth::SecretDigest& digest);

}  // namespace codepayload::testing
