#include "app/registry_copy.h"

#include <Poco/Data/LOB.h>
#include <Poco/Data/RecordSet.h>
#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/Exception.h>
#include <Poco/Nullable.h>

#include <filesystem>
#include <set>
#include <stdexcept>

#include "app/postgresql_registry.h"
#include "app/sealed_secrets.h"
#include "app/sqlite_registry.h"
#include "auth/key_encryption.h"
#include "auth/private_file.h"
#include "auth/registry_database.h"
#include "auth/signing_keys.h"
#include "auth/unix_clock.h"
#include "db/db_error.h"
#include "db/poco_migrations.h"

namespace codepayload::app {

namespace {

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

// The registry's tables in an order the foreign keys accept. The standing
// counter is the target's own (its triggers count the copy's inserts); the
// migrations table and the sealed secrets are written otherwise; published
// releases exist in PostgreSQL only.
constexpr const char* kCopiedTables[] = {
    "organizations", "api_clients",    "users",     "operators",          "user_placeholders",
    "sessions",      "recovery_codes", "audit_log", "client_usage_daily", "organization_settings"};
const std::set<std::string> kNotCopied = {"schema_migrations", "client_standing_version", "installation_secrets",
                                          "signing_keys", "published_releases"};

std::vector<std::string> strings(Poco::Data::Session& session, const std::string& sql) {
  std::vector<std::string> values;
  session << sql, into(values), now;
  return values;
}

// The target's tables, and their rows: refused unless it is empty, or holds
// only the registry's schema (a copy that failed after migrating).
void refuseATargetInUse(Poco::Data::Session& target, const std::string& name) {
  const std::vector<std::string> tables =
      strings(target, "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1");
  if (tables.empty()) return;
  std::set<std::string> registryTables(kNotCopied);
  registryTables.insert(std::begin(kCopiedTables), std::end(kCopiedTables));
  for (const std::string& table : tables) {
    if (!registryTables.contains(table)) {
      throw RegistryConfigurationError("registry copy: the database " + name + " holds the table " + table +
                                       ", which is not a codepayload registry's; copy into an empty database");
    }
  }
  for (const std::string& table : tables) {
    if (table == "schema_migrations" || table == "client_standing_version") continue;
    Poco::Int64 rows = 0;
    target << "SELECT count(*) FROM " + table, into(rows), now;
    if (rows > 0) {
      throw RegistryConfigurationError("registry copy: the database " + name + " already holds a registry (" +
                                       std::to_string(rows) + " rows in " + table + "); copy into an empty database");
    }
  }
}

// The PostgreSQL type of each column of `table` that the copy writes (its
// `rowid`, numbered by the target, left out), in the table's order.
std::vector<std::pair<std::string, std::string>> targetColumns(Poco::Data::Session& target, const std::string& table) {
  std::vector<std::string> names, types;
  target << "SELECT column_name::text, data_type::text FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = $1 AND column_name <> 'rowid'"
            " ORDER BY ordinal_position",
      bind(table), into(names), into(types), now;
  std::vector<std::pair<std::string, std::string>> columns;
  for (std::size_t index = 0; index < names.size(); ++index) columns.emplace_back(names[index], types[index]);
  return columns;
}

// Copies `table` row by row, in the source's insertion order; the number of rows.
std::size_t copyTable(Poco::Data::Session& source, Poco::Data::Session& target, const std::string& table) {
  const std::vector<std::pair<std::string, std::string>> columns = targetColumns(target, table);
  std::string select = "SELECT ";
  std::string insert = "INSERT INTO " + table + " (";
  std::string values;
  for (std::size_t index = 0; index < columns.size(); ++index) {
    const std::string separator = index == 0 ? "" : ", ";
    select += separator + columns[index].first;
    insert += separator + columns[index].first;
    values += separator + "$" + std::to_string(index + 1);
  }
  select += " FROM " + table + " ORDER BY rowid";
  // audit_log.id is GENERATED ALWAYS: the copy keeps the source's numbers.
  insert += ")" + std::string(table == "audit_log" ? " OVERRIDING SYSTEM VALUE" : "") + " VALUES (" + values + ")";

  Poco::Data::Statement query(source);
  query << select, now;
  Poco::Data::RecordSet rows(query);
  std::size_t copied = 0;
  for (bool more = rows.moveFirst(); more; more = rows.moveNext()) {
    Poco::Data::Statement row(target);
    row << insert;
    for (std::size_t column = 0; column < columns.size(); ++column) {
      const Poco::Dynamic::Var& value = rows.value(column);
      const std::string& type = columns[column].second;
      if (type == "bigint") {
        row, bind(value.isEmpty() ? Poco::Nullable<Poco::Int64>()
                                  : Poco::Nullable<Poco::Int64>(value.convert<Poco::Int64>()));
      } else if (type == "bytea") {
        row, bind(value.isEmpty() ? Poco::Nullable<Poco::Data::BLOB>()
                                  : Poco::Nullable<Poco::Data::BLOB>(value.extract<Poco::Data::BLOB>()));
      } else {
        row, bind(value.isEmpty() ? Poco::Nullable<std::string>()
                                  : Poco::Nullable<std::string>(value.convert<std::string>()));
      }
    }
    row.execute();
    ++copied;
  }
  return copied;
}

void insertSecret(Poco::Data::Session& target, std::string_view name, const std::string& sealed, std::int64_t at) {
  const Poco::Data::BLOB blob(reinterpret_cast<const unsigned char*>(sealed.data()), sealed.size());
  target << "INSERT INTO installation_secrets (name, sealed, created_at) VALUES ($1, $2, $3)", bind(std::string(name)),
      bind(blob), bind(Poco::Int64{at}), now;
}

// The key in `file`, sealed into signing_keys: signing from `at` (the active
// key), published only and signing never (a next key), or published until it
// retires (a previous key).
void insertSigningKey(Poco::Data::Session& target, const auth::KeyEncryptionKey& key, const std::filesystem::path& file,
                      std::int64_t at, bool signs) {
  const WipedString pem{auth::readPrivateFile(file)};
  const auth::SigningKey signingKey = auth::SigningKey::fromPem(pem.text, "token signing key: " + file.string());
  const std::string sealed = key.seal(pem.text, signingKeyContext(signingKey.kid()));
  const Poco::Data::BLOB blob(reinterpret_cast<const unsigned char*>(sealed.data()), sealed.size());
  Poco::Nullable<Poco::Int64> signsFrom;
  if (signs) signsFrom = at;
  target << "INSERT INTO signing_keys (kid, algorithm, sealed_private_key, published_at, signs_from)"
            " VALUES ($1, $2, $3, $4, $5)",
      bind(signingKey.kid()), bind(signingKey.algorithmName()), bind(blob), bind(Poco::Int64{at}), bind(signsFrom), now;
}

}  // namespace

RegistryCopyReport copyRegistry(const RegistryLocation& from, const RegistryLocation& to) {
  const std::filesystem::path sourceFile = from.dataDir / kRegistryDatabaseFile;
  if (!std::filesystem::exists(sourceFile)) {
    throw RegistryConfigurationError("registry copy: no SQLite registry at " + sourceFile.string() +
                                     " (data.dir names the data directory to copy from)");
  }
  if (to.keyEncryptionKeyFile.empty()) {
    throw RegistryConfigurationError(
        "secrets.keyEncryptionKeyFile: required to copy into PostgreSQL: the file every instance will read, e.g."
        " (umask 077; head -c 32 /dev/urandom > /etc/codepayload/key-encryption-key)");
  }
  const auth::KeyEncryptionKey key = loadKeyEncryptionKey(to.keyEncryptionKeyFile);
  const auth::RegistryDatabase target =
      auth::RegistryDatabase::postgresql(to.postgresql->connectionString, to.postgresql->displayName);

  Poco::Data::Session targetSession = connectToRegistry(target);
  try {
    refuseATargetInUse(targetSession, target.name);
    applyMigrations(targetSession, to.migrationsDir / "postgresql");
  } catch (const Poco::Exception& error) {
    throw std::runtime_error("registry copy into " + target.name + ": " + databaseMessageOf(error));
  } catch (const DbError& error) {
    throw std::runtime_error("registry copy into " + target.name + ": " + error.what());
  }

  // The source as the server left it; read in one transaction, so that a
  // server still writing to it cannot tear the copy.
  Poco::Data::Session sourceSession = auth::openRegistrySession(auth::RegistryDatabase::sqlite(sourceFile));
  RegistryCopyReport report;
  try {
    applyMigrations(sourceSession, from.migrationsDir);
    sourceSession << "BEGIN", now;
    auth::WriteTransaction transaction(targetSession);
    refuseATargetInUse(targetSession, target.name);
    const std::int64_t at = auth::systemUnixSeconds();
    insertSecret(targetSession, kKeyCheckSecret, key.sealCheck(), at);
    {
      const WipedString pepper{auth::readPrivateFile(from.dataDir / kPepperFile)};
      if (pepper.text.size() != auth::SecretHasher::kPepperSize) {
        throw std::runtime_error("client secret pepper " + (from.dataDir / kPepperFile).string() + " has " +
                                 std::to_string(pepper.text.size()) + " bytes; it must have exactly " +
                                 std::to_string(auth::SecretHasher::kPepperSize));
      }
      insertSecret(targetSession, kPepperSecret, key.seal(pepper.text, installationSecretContext(kPepperSecret)), at);
    }
    // A data dir no server has started on yet has no key, and no token was
    // signed: the PostgreSQL registry makes its first key on first use.
    if (std::filesystem::exists(from.dataDir / kSigningKeyFile)) {
      insertSigningKey(targetSession, key, from.dataDir / kSigningKeyFile, at, true);
      report.signingKeys = 1;
      for (const std::string_view file : {kPreviousSigningKeyFile, kNextSigningKeyFile}) {
        if (!std::filesystem::exists(from.dataDir / file)) continue;
        insertSigningKey(targetSession, key, from.dataDir / file, at, false);
        ++report.signingKeys;
      }
    }
    for (const char* table : kCopiedTables)
      report.tables.emplace_back(table, copyTable(sourceSession, targetSession, table));
    targetSession << "SELECT setval(pg_get_serial_sequence('audit_log', 'id'), coalesce(max(id), 0) + 1, false)"
                     " FROM audit_log",
        now;
    transaction.commit();
    sourceSession << "COMMIT", now;
  } catch (const RegistryConfigurationError&) {
    throw;
  } catch (const Poco::Exception& error) {
    throw std::runtime_error("registry copy into " + target.name +
                             " failed, nothing of it stays: " + databaseMessageOf(error));
  } catch (const std::exception& error) {
    throw std::runtime_error("registry copy into " + target.name +
                             " failed, nothing of it stays: " + std::string(error.what()));
  }
  return report;
}

}  // namespace codepayload::app
