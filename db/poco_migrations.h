// The migration runner (db/migrations.h) on a Poco::Data::Session: the client
// registry's schema is applied through the same database API the registry
// speaks. The SQL that differs between databases comes from the session's
// connector: "sqlite" or "postgresql".
#pragma once

#include <Poco/Data/Session.h>
#include <Poco/Exception.h>

#include <filesystem>
#include <string>

#include "db/migrations.h"

namespace codepayload {

// The database's own message in a Poco::Data exception: without the exception
// class's name, and said once (the SQLite connector repeats SQLite's message
// as "M: M").
std::string databaseMessageOf(const Poco::Exception& error);

// The MigrationDialect of a Poco::Data connector; throws DbError for a
// connector the runner has no dialect for.
const MigrationDialect& migrationDialectOf(const Poco::Data::Session& session);

// As applyMigrations(sqlite3*, dir) and schemaVersion(sqlite3*), on `session`.
// The session must not be inside a transaction.
void applyMigrations(Poco::Data::Session& session, const std::filesystem::path& dir);
int schemaVersion(Poco::Data::Session& session);

// Runs `sql`, one or more statements, on a PostgreSQL session. Poco's
// PostgreSQL statements are prepared (PQprepare), which takes a single
// statement; a migration file and a transaction's start with its lock are
// scripts, so they go through libpq's simple query (PQexec) on the session's
// own connection. A script that fails inside its own transaction leaves none
// open. Throws DbError("<what>: <PostgreSQL's message>").
void executePostgresqlScript(Poco::Data::Session& session, const std::string& sql, std::string_view what);

// Rolls back the PostgreSQL session's open transaction, if any (a ROLLBACK
// without one only earns a warning); does nothing on another session.
void rollbackPostgresql(Poco::Data::Session& session) noexcept;

}  // namespace codepayload
