// The registry in one PostgreSQL database shared by several instances
// (app/postgresql_registry.h), against a real scratch PostgreSQL 15: two
// instances opened on one database with one key-encryption key hold the same
// pepper and signing keys; what they store there is sealed; and every way the
// configuration can be wrong is refused with one line before anything is
// written.
#include "app/postgresql_registry.h"

#include <Poco/Data/LOB.h>
#include <Poco/Data/PostgreSQL/Connector.h>
#include <Poco/Data/Session.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <memory>
#include <string>
#include <vector>

#include "auth/auth_service.h"
#include "auth/client_registry.h"
#include "tests/support/scratch_postgresql.h"
#include "tests/tools/test_files.h"

namespace codepayload::app {
namespace {

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;
using testing::ScratchPostgresql;

class PostgresqlRegistryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    Poco::Data::PostgreSQL::Connector::registerConnector();
    try {
      server_ = std::make_unique<ScratchPostgresql>();
    } catch (const std::exception& error) {
      startError_ = error.what();
    }
  }
  static void TearDownTestSuite() { server_.reset(); }

  void SetUp() override {
    // Fails, never skips: a missing server must not turn these tests green.
    ASSERT_NE(server_, nullptr) << "cannot start a scratch PostgreSQL: " << startError_;
    static int databases = 0;
    database_ = "shared_" + std::to_string(++databases);
    server_->createDatabase(database_);
    keyFile_ = writeKey("instances.key", std::string(32, 'k'));
  }

  std::filesystem::path writeKey(const std::string& name, const std::string& bytes, mode_t mode = 0600) {
    const std::filesystem::path file = dir_.path() / name;
    testing::writeFile(file, bytes);
    ::chmod(file.c_str(), mode);
    return file;
  }

  std::string displayName() const {
    return "postgresql://" + server_->user() + "@127.0.0.1:" + std::to_string(server_->port()) + "/" + database_;
  }

  RegistryLocation location(const std::filesystem::path& keyFile) const {
    return RegistryLocation{dir_.path() / "unused-data-dir",
                            std::filesystem::path(CODEPAYLOAD_TEST_SCHEMA_DIR) / "registry",
                            PostgresqlRegistry{server_->connectionString(database_), displayName()}, keyFile};
  }

  // What opening the registry with `where` refuses, or "opened".
  static std::string refusalOf(const RegistryLocation& where) {
    try {
      openRegistry(where);
    } catch (const RegistryConfigurationError& error) {
      return error.what();
    }
    return "opened";
  }

  std::vector<std::string> column(const std::string& sql) const {
    Poco::Data::Session session(Poco::Data::PostgreSQL::Connector::KEY, server_->connectionString(database_));
    std::vector<std::string> values;
    session << sql, into(values), now;
    return values;
  }

  static std::unique_ptr<ScratchPostgresql> server_;
  static std::string startError_;
  testing::TempDir dir_;
  std::string database_;
  std::filesystem::path keyFile_;
};

std::unique_ptr<ScratchPostgresql> PostgresqlRegistryTest::server_;
std::string PostgresqlRegistryTest::startError_;

TEST_F(PostgresqlRegistryTest, TwoInstancesShareThePepperAndTheSigningKeys) {
  const std::unique_ptr<Registry> first = openRegistry(location(keyFile_));
  const std::unique_ptr<Registry> second = openRegistry(location(keyFile_));
  EXPECT_EQ(first->name(), displayName());
  EXPECT_TRUE(first->exists());

  // A client created through one instance authenticates through the other.
  const std::unique_ptr<auth::ClientRegistry> clients = first->openClients(auth::systemUnixSeconds);
  const auth::Organization acme = clients->createOrganization("Acme", auth::Plan::Starter);
  const auth::CreatedClient created = clients->createClient(acme.id, "line 4", {"write:codes"}, "tester");
  const std::optional<auth::ClientAuthRecord> seen =
      second->openClients(auth::systemUnixSeconds)->findClientForAuthentication(created.client.id);
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->secretDigest, second->secretHasher().digest(created.secret));

  // One key signs for both: the same JWKS, the same kid, made once.
  const auth::SigningKeySet firstKeys = first->signingKeys();
  const auth::SigningKeySet secondKeys = second->signingKeys();
  EXPECT_EQ(firstKeys.active().kid(), secondKeys.active().kid());
  EXPECT_EQ(firstKeys.jwksJson(), secondKeys.jwksJson());
  EXPECT_EQ(firstKeys.active().algorithmName(), "ES256");
  EXPECT_EQ(column("SELECT kid || ' ' || algorithm FROM signing_keys"),
            std::vector<std::string>{firstKeys.active().kid() + " ES256"});
  EXPECT_EQ(column("SELECT name FROM installation_secrets ORDER BY name"),
            (std::vector<std::string>{"client-secret-pepper", "key-check"}));
  // A third instance, later, reads what the first two made.
  EXPECT_EQ(openRegistry(location(keyFile_))->signingKeys().jwksJson(), firstKeys.jwksJson());
}

TEST_F(PostgresqlRegistryTest, NoSecretIsStoredInTheClear) {
  const std::unique_ptr<Registry> registry = openRegistry(location(keyFile_));
  const auth::SigningKeySet keys = registry->signingKeys();
  const std::unique_ptr<auth::ClientRegistry> clients = registry->openClients(auth::systemUnixSeconds);
  const auth::Organization acme = clients->createOrganization("Acme", auth::Plan::Starter);
  const auth::CreatedClient created = clients->createClient(acme.id, "line 4", {"write:codes"}, "tester");
  // Everything the database holds, as text: no secret, no private key.
  std::string everything;
  for (const std::string& table : column("SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()")) {
    for (const std::string& row : column("SELECT t::text FROM " + table + " t")) everything += row + "\n";
  }
  EXPECT_NE(everything.find(created.client.id), std::string::npos);
  EXPECT_EQ(everything.find(created.secret), std::string::npos);
  EXPECT_EQ(everything.find("PRIVATE KEY"), std::string::npos);
  EXPECT_EQ(everything.find(std::string(32, 'k')), std::string::npos);
  // The sealed values: a version byte, a nonce and a tag around each.
  EXPECT_EQ(column("SELECT name || ' ' || length(sealed) FROM installation_secrets ORDER BY name"),
            (std::vector<std::string>{"client-secret-pepper 61", "key-check 65"}));
}

TEST_F(PostgresqlRegistryTest, AnotherKeyFileIsRefusedAndChangesNothing) {
  openRegistry(location(keyFile_))->signingKeys();
  const std::vector<std::string> before = column("SELECT name || encode(sealed, 'hex') FROM installation_secrets");
  const std::filesystem::path other = writeKey("other.key", std::string(32, 'o'));
  EXPECT_EQ(refusalOf(location(other)), "secrets.keyEncryptionKeyFile: " + other.string() +
                                            " is not the key-encryption key the secrets of " + displayName() +
                                            " are sealed with; give every instance the same key file");
  EXPECT_EQ(column("SELECT name || encode(sealed, 'hex') FROM installation_secrets"), before);
}

TEST_F(PostgresqlRegistryTest, AMissingOrWeakKeyFileIsRefused) {
  EXPECT_EQ(refusalOf(location({})),
            "secrets.keyEncryptionKeyFile: required with registry.url: the same file of at least 32 random bytes on"
            " every instance, e.g. (umask 077; head -c 32 /dev/urandom > /etc/codepayload/key-encryption-key)");
  const std::filesystem::path shortKey = writeKey("short.key", std::string(31, 's'));
  EXPECT_EQ(refusalOf(location(shortKey)), "secrets.keyEncryptionKeyFile: key-encryption key " + shortKey.string() +
                                               " holds 31 bytes; a key-encryption key is at least 32 random bytes,"
                                               " e.g. (umask 077; head -c 32 /dev/urandom > " +
                                               shortKey.string() + ")");
  // Nothing was created: the key is read before the database is touched.
  EXPECT_EQ(column("SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()"),
            std::vector<std::string>{});
}

TEST_F(PostgresqlRegistryTest, ADatabaseThatIsNotARegistryIsRefusedUntouched) {
  server_->psql(database_, "CREATE TABLE invoices (id BIGINT); CREATE TABLE customers (id BIGINT);");
  EXPECT_EQ(refusalOf(location(keyFile_)),
            "registry.url: the database " + displayName() +
                " holds tables that are not a codepayload registry (customers, invoices); name an empty database, or"
                " one this service created");
  EXPECT_EQ(column("SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1"),
            (std::vector<std::string>{"customers", "invoices"}));
}

TEST_F(PostgresqlRegistryTest, AServerThatCannotBeReachedOrRefusesTheLoginIsOneLine) {
  RegistryLocation wrongPassword = location(keyFile_);
  wrongPassword.postgresql->connectionString = "host='127.0.0.1' port='" + std::to_string(server_->port()) +
                                               "' dbname='" + database_ + "' user='" + server_->user() +
                                               "' password='not-the-password'";
  EXPECT_EQ(refusalOf(wrongPassword), "registry.url: cannot connect to " + displayName() +
                                          ": Connection Error: connection to server at"
                                          " \"127.0.0.1\", port " +
                                          std::to_string(server_->port()) +
                                          " failed: FATAL:  password authentication failed for user \"" +
                                          server_->user() + "\"");
  RegistryLocation nobodyListens = location(keyFile_);
  nobodyListens.postgresql->connectionString = "host='127.0.0.1' port='1' dbname='x' user='x' password='x'";
  EXPECT_EQ(refusalOf(nobodyListens), "registry.url: cannot connect to " + displayName() +
                                          ": Connection Error: connection to server at \"127.0.0.1\", port 1"
                                          " failed: Connection refused");
}

}  // namespace
}  // namespace codepayload::app
