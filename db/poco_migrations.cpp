#include "db/poco_migrations.h"

#include <Poco/Data/Statement.h>
#include <Poco/Exception.h>

#include <string>
#include <vector>

namespace codepayload {

namespace {

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;
using Poco::Data::Keywords::use;
using Poco::Data::Keywords::useRef;

[[noreturn]] void fail(std::string_view what, const Poco::Exception& error) {
  throw DbError(std::string(what) + ": " + databaseMessageOf(error));
}

class PocoMigrationConnection final : public MigrationConnection {
 public:
  explicit PocoMigrationConnection(Poco::Data::Session& session)
      : session_(session), dialect_(migrationDialectOf(session)) {}

  const MigrationDialect& dialect() const override { return dialect_; }

  void execute(const std::string& sql, std::string_view what) override {
    try {
      session_ << sql, now;
    } catch (const Poco::Exception& error) {
      fail(what, error);
    }
  }

  bool returnsRow(const std::string& sql, std::string_view what) override {
    try {
      Poco::Data::Statement statement(session_);
      statement << sql;
      return statement.execute() > 0;
    } catch (const Poco::Exception& error) {
      fail(what, error);
    }
  }

  std::vector<RecordedMigration> recorded(std::string_view what) override {
    try {
      std::vector<Poco::Int64> versions;
      std::vector<std::string> names;
      session_ << kSelectRecordedMigrations, into(versions), into(names), now;
      std::vector<RecordedMigration> rows;
      rows.reserve(versions.size());
      for (std::size_t row = 0; row < versions.size(); ++row)
        rows.push_back(RecordedMigration{versions[row], names[row]});
      return rows;
    } catch (const Poco::Exception& error) {
      fail(what, error);
    }
  }

  void record(const RecordedMigration& migration, const std::string& appliedAt, std::string_view what) override {
    try {
      Poco::Int64 version = migration.version;
      session_ << kInsertRecordedMigration, use(version), useRef(migration.name), useRef(appliedAt), now;
    } catch (const Poco::Exception& error) {
      fail(what, error);
    }
  }

  void rollback() noexcept override {
    try {
      session_ << "ROLLBACK", now;
    } catch (...) {
      // The connection is broken; its next statement reports it.
    }
  }

 private:
  Poco::Data::Session& session_;
  const MigrationDialect& dialect_;
};

}  // namespace

std::string databaseMessageOf(const Poco::Exception& error) {
  std::string message = error.message();
  const std::size_t half = message.size() >= 2 ? (message.size() - 2) / 2 : 0;
  if (half > 0 && message.size() == 2 * half + 2 && message.compare(half, 2, ": ") == 0 &&
      message.compare(0, half, message, half + 2, half) == 0) {
    message.resize(half);
  }
  return message;
}

const MigrationDialect& migrationDialectOf(const Poco::Data::Session& session) {
  const std::string connector = session.connector();
  if (connector == "sqlite") return kSqliteMigrationDialect;
  throw DbError("the migration runner has no SQL dialect for the Poco::Data connector \"" + connector + "\"");
}

void applyMigrations(Poco::Data::Session& session, const std::filesystem::path& dir) {
  PocoMigrationConnection connection(session);
  applyMigrations(connection, dir);
}

int schemaVersion(Poco::Data::Session& session) {
  PocoMigrationConnection connection(session);
  return schemaVersion(connection);
}

}  // namespace codepayload
