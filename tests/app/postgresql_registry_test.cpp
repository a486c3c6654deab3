// The registry in one PostgreSQL database shared by several instances
// (app/postgresql_registry.h), against a real scratch PostgreSQL 15: two
// instances opened on one database with one key-encryption key hold the same
// pepper and signing keys; what they store there is sealed; and every way the
// configuration can be wrong is refused with one line before anything is
// written.
#include "app/postgresql_registry.h"

#include "accounts/account_store.h"
#include "accounts/sha256_hex.h"
#include "app/registry_copy.h"
#include "app/sqlite_registry.h"
#include "auth/usage_store.h"

#include <Poco/Data/LOB.h>
#include <Poco/Data/PostgreSQL/Connector.h>
#include <Poco/Data/Session.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>

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

// The standard output of the shell command `command`; its exit status in `status`.
std::string commandOutput(const std::string& command, int& status) {
  std::FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  status = WEXITSTATUS(::pclose(pipe));
  return out;
}

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

// Growing from one machine: the SQLite registry of a data directory, copied
// into an empty PostgreSQL database, answers for the secrets and keys made
// before the move.
TEST_F(PostgresqlRegistryTest, ACopyOfAnSqliteRegistryKeepsEveryRowSecretAndKey) {
  const RegistryLocation sqlite{dir_.path() / "data", location(keyFile_).migrationsDir, std::nullopt, {}};
  auth::CreatedClient created;
  std::string kid;
  {
    const std::unique_ptr<Registry> before = openRegistry(sqlite);
    kid = before->signingKeys().active().kid();
    const std::unique_ptr<auth::ClientRegistry> clients = before->openClients(auth::systemUnixSeconds);
    const auth::Organization acme = clients->createOrganization("Acme", auth::Plan::Starter);
    created = clients->createClient(acme.id, "line 4", {"write:codes"}, "tester");
    const auth::CreatedClient blocked = clients->createClient(acme.id, "line 5", {"write:codes"}, "tester");
    clients->setClientState(blocked.client.id, auth::ClientState::Blocked);
    const std::unique_ptr<accounts::AccountStore> accounts = before->openAccounts(auth::systemUnixSeconds);
    accounts->createUser(
        acme.id, "ana@example.com", accounts::Role::Owner,
        "$argon2id$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$gy5SuVm5Z7Vw7keB9se9p87QGcomaseB/S2U1OhTsM0",
        accounts::AuditContext{"cli:tester", "local"});
    before->openUsage()->add({auth::ClientUsageDelta{created.client.id, acme.id, {{20500, {3, 7, 1}}}, 1771200000}});
  }
  const RegistryCopyReport report = copyRegistry(sqlite, location(keyFile_));
  EXPECT_EQ(report.signingKeys, 1u);
  std::string copied;
  for (const auto& [table, rows] : report.tables) copied += table + "=" + std::to_string(rows) + " ";
  EXPECT_EQ(copied,
            "organizations=1 api_clients=2 users=1 operators=0 user_placeholders=0 sessions=0 recovery_codes=0 "
            "audit_log=1 client_usage_daily=1 organization_settings=0 ");

  const std::unique_ptr<Registry> after = openRegistry(location(keyFile_));
  EXPECT_EQ(after->signingKeys().active().kid(), kid);
  const std::optional<auth::ClientAuthRecord> found =
      after->openClients(auth::systemUnixSeconds)->findClientForAuthentication(created.client.id);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->secretDigest, after->secretHasher().digest(created.secret));
  EXPECT_EQ(column("SELECT state FROM api_clients ORDER BY rowid"), (std::vector<std::string>{"active", "blocked"}));
  EXPECT_EQ(column("SELECT id || ' ' || action FROM audit_log"), std::vector<std::string>{"1 user.create"});
  EXPECT_EQ(column("SELECT day || ' ' || tokens_issued || ' ' || codes_accepted FROM client_usage_daily"),
            std::vector<std::string>{"2026-02-16 3 7"});
  // The audit log numbers on after the copied rows.
  after->openAccounts(auth::systemUnixSeconds)
      ->appendAudit(accounts::AuditRecord{0, 1771200000, "cli:tester", "org.note", "", "", "local",
                                          accounts::AuditResult::Success, ""});
  EXPECT_EQ(column("SELECT id || ' ' || action FROM audit_log ORDER BY id"),
            (std::vector<std::string>{"1 user.create", "2 org.note"}));

  // A second copy into the same database is refused, and changes nothing.
  try {
    copyRegistry(sqlite, location(keyFile_));
    ADD_FAILURE() << "copied into a registry";
  } catch (const RegistryConfigurationError& error) {
    EXPECT_EQ(std::string(error.what()), "registry copy: the database " + displayName() +
                                             " already holds a registry (2 rows in api_clients); copy into an"
                                             " empty database");
  }
  EXPECT_EQ(column("SELECT count(*)::text FROM organizations"), std::vector<std::string>{"1"});
}

// docs/scaling.md's backup: pg_dump of the registry, pg_restore into a new
// database, and the restored registry answers for the same secrets and keys.
TEST_F(PostgresqlRegistryTest, ABackupWithPgDumpRestoresWithPgRestore) {
  auth::CreatedClient created;
  std::string jwks;
  {
    const std::unique_ptr<Registry> original = openRegistry(location(keyFile_));
    jwks = original->signingKeys().jwksJson();
    const std::unique_ptr<auth::ClientRegistry> clients = original->openClients(auth::systemUnixSeconds);
    created = clients->createClient(clients->createOrganization("Acme", auth::Plan::Starter).id, "line 4",
                                    {"write:codes"}, "tester");
  }
  const std::filesystem::path dump = dir_.path() / "registry.dump";
  server_->client("pg_dump", "--format=custom --file='" + dump.string() + "' " + database_);
  const std::string restored = database_ + "_restored";
  server_->createDatabase(restored);
  server_->client("pg_restore", "--dbname=" + restored + " '" + dump.string() + "'");

  RegistryLocation restoredLocation = location(keyFile_);
  restoredLocation.postgresql->connectionString = server_->connectionString(restored);
  const std::unique_ptr<Registry> registry = openRegistry(restoredLocation);
  EXPECT_EQ(registry->signingKeys().jwksJson(), jwks);
  const std::optional<auth::ClientAuthRecord> found =
      registry->openClients(auth::systemUnixSeconds)->findClientForAuthentication(created.client.id);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->secretDigest, registry->secretHasher().digest(created.secret));
  // The restored audit log numbers on.
  registry->openAccounts(auth::systemUnixSeconds)
      ->appendAudit(accounts::AuditRecord{0, 1771200000, "cli:tester", "org.note", "", "", "local",
                                          accounts::AuditResult::Success, ""});
  EXPECT_EQ(server_->query(restored, "SELECT count(*) FROM audit_log"), "1");
}

// The command an operator runs: codepayload-admin registry copy, its answer
// and its refusal of a database that holds a registry already.
TEST_F(PostgresqlRegistryTest, TheAdminCopiesTheDataDirsRegistryAndRefusesToCopyTwice) {
  const std::filesystem::path dataDir = dir_.path() / "data";
  const std::string url = "postgresql://" + server_->user() + ":" + server_->password() +
                          "@127.0.0.1:" + std::to_string(server_->port()) + "/" + database_;
  const auto admin = [&](const std::string& arguments, int& status) {
    const std::string command = "env -i PATH=/usr/bin:/bin CODEPAYLOAD_DATA_DIR='" + dataDir.string() +
                                "' CODEPAYLOAD_KEY_ENCRYPTION_KEY_FILE='" + keyFile_.string() + "' '" +
                                CODEPAYLOAD_ADMIN_EXECUTABLE + "' " + arguments + " 2>'" +
                                (dir_.path() / "admin.err").string() + "'";
    return commandOutput(command, status);
  };
  int status = -1;
  admin("init", status);
  ASSERT_EQ(status, 0);
  const std::string organization = admin("org create --name Acme --plan starter", status);
  ASSERT_EQ(status, 0);
  EXPECT_EQ(admin("registry copy --to '" + url + "'", status),
            R"({"from":")" + (dataDir / "registry.db").string() + R"(","to":")" + displayName() +
                R"(","tables":{"organizations":1,"api_clients":0,"users":0,"operators":0,"user_placeholders":0,)"
                R"("sessions":0,"recovery_codes":0,"audit_log":1,"client_usage_daily":0,"organization_settings":0},)"
                R"("signingKeys":0})"
                "\n");
  EXPECT_EQ(status, 0) << testing::readFile(dir_.path() / "admin.err");
  EXPECT_EQ(admin("registry copy --to '" + url + "'", status), "");
  EXPECT_EQ(status, 78);
  EXPECT_EQ(testing::readFile(dir_.path() / "admin.err"),
            "codepayload-admin: registry copy: the database " + displayName() +
                " already holds a registry (1 rows in audit_log); copy into an empty database\n");
  EXPECT_EQ(testing::readFile(dir_.path() / "admin.err").find(server_->password()), std::string::npos);
}

// The user commands of codepayload-admin on a PostgreSQL registry: the same
// store, so the same answers as on the data dir's SQLite file.
TEST_F(PostgresqlRegistryTest, TheAdminManagesUsersOnAPostgresqlRegistry) {
  const std::string url = "postgresql://" + server_->user() + ":" + server_->password() +
                          "@127.0.0.1:" + std::to_string(server_->port()) + "/" + database_;
  int status = -1;
  // codepayload-admin `arguments` on the shared registry, `input` on standard input.
  const auto admin = [&](const std::string& arguments, const std::string& input = "") {
    testing::writeFile(dir_.path() / "admin.in", input);
    const std::string command =
        "env -i PATH=/usr/bin:/bin CODEPAYLOAD_DATA_DIR='" + (dir_.path() / "unused-data-dir").string() +
        "' CODEPAYLOAD_REGISTRY_URL='" + url + "' CODEPAYLOAD_KEY_ENCRYPTION_KEY_FILE='" + keyFile_.string() + "' '" +
        CODEPAYLOAD_ADMIN_EXECUTABLE + "' " + arguments + " <'" + (dir_.path() / "admin.in").string() + "' 2>'" +
        (dir_.path() / "admin.err").string() + "'";
    return commandOutput(command, status);
  };
  const auto idIn = [](const std::string& json) { return json.substr(7, 20); };
  admin("init");
  ASSERT_EQ(status, 0) << testing::readFile(dir_.path() / "admin.err");
  const std::string org = idIn(admin("org create --name Acme --plan starter"));
  const std::string password = "correct horse battery staple\n";
  const std::string ana =
      idIn(admin("user create --org " + org + " --email ana@example.com --role owner --password-stdin", password));
  const std::string bob =
      idIn(admin("user create --org " + org + " --email Bob@Example.com --role viewer --password-stdin", password));
  ASSERT_EQ(status, 0) << testing::readFile(dir_.path() / "admin.err");

  EXPECT_EQ(admin("user list"),
            "EMAIL            ORGANIZATION          ROLE    2FA\n"
            "ana@example.com  " +
                org + "  owner   off\n" + "Bob@Example.com  " + org + "  viewer  off\n");
  EXPECT_EQ(admin("user set-role ana@example.com viewer"), "");
  EXPECT_EQ(status, 1);
  EXPECT_EQ(testing::readFile(dir_.path() / "admin.err"),
            "codepayload-admin: registry " + displayName() +
                "\ncodepayload-admin: the organization's last owner cannot become viewer; make another user owner "
                "first\n");
  EXPECT_NE(admin("user set-role bob@example.com owner").find(R"("role":"owner")"), std::string::npos);
  EXPECT_EQ(admin("user reset-password ana@example.com --password-stdin", "another long passphrase\n"),
            R"({"id":")" + ana + R"(","email":"ana@example.com","sessionsEnded":0})" + "\n");
  EXPECT_EQ(admin("user delete ana@example.com"),
            R"({"id":")" + ana + R"(","email":"ana@example.com","deleted":true})" + "\n");
  EXPECT_EQ(admin("user delete ana@example.com"), "");
  EXPECT_EQ(status, 1);
  EXPECT_EQ(admin("user list --org " + org),
            "EMAIL            ORGANIZATION          ROLE   2FA\n"
            "Bob@Example.com  " +
                org + "  owner  off\n");
  EXPECT_EQ(column("SELECT action || ' ' || result || ' ' || target || ' ' || detail FROM audit_log"
                   " WHERE action LIKE 'user.%' AND action <> 'user.create' ORDER BY id"),
            (std::vector<std::string>{
                "user.set-role refused " + ana +
                    " the organization's last owner cannot become viewer; make another user owner first",
                "user.set-role success " + bob + " email=Bob@Example.com role=viewer->owner",
                "user.reset-password success " + ana + " email=ana@example.com sessions=0",
                "user.delete success " + ana + " email=ana@example.com role=owner",
                "user.delete refused  no user with email \"ana@example.com\""}));
}

// The releases published to every instance: the newest is in force, an older
// one is refused unless allowed, the same file is not published twice, and an
// SQLite registry has none to publish to.
TEST_F(PostgresqlRegistryTest, PublishedReleasesKeepTheNewestAndRefuseADowngrade) {
  const std::unique_ptr<Registry> first = openRegistry(location(keyFile_));
  const std::unique_ptr<Registry> second = openRegistry(location(keyFile_));
  const std::unique_ptr<PublishedReleases> publisher = first->openPublishedReleases();
  const std::unique_ptr<PublishedReleases> reader = second->openPublishedReleases();
  ASSERT_NE(publisher, nullptr);
  EXPECT_EQ(reader->latest(), std::nullopt);

  const std::string newer("SQLite format 3\0newer rules", 27);
  const PublishedRelease published = publisher->publish("2025-01-30", newer, false);
  EXPECT_GT(published.id, 0);
  EXPECT_EQ(published.release, "2025-01-30");
  EXPECT_EQ(published.sha256, accounts::sha256Hex(newer));
  EXPECT_EQ(reader->latest(), published);
  EXPECT_EQ(reader->rulesDatabase(published.id), newer);
  EXPECT_EQ(publisher->publish("2025-01-30", newer, false), published);

  try {
    publisher->publish("2024-06-10", "older rules", false);
    ADD_FAILURE() << "an older release was published";
  } catch (const PublishedReleaseError& error) {
    EXPECT_EQ(error.kind, PublishedReleaseError::Kind::Downgrade);
    EXPECT_STREQ(error.what(),
                 "the registry serves GS1 release 2025-01-30, newer than release 2024-06-10; publishing it would "
                 "replace newer rules by older ones (--allow-downgrade publishes it anyway)");
  }
  EXPECT_EQ(reader->latest(), published);
  const PublishedRelease downgraded = publisher->publish("2024-06-10", "older rules", true);
  EXPECT_GT(downgraded.id, published.id);
  EXPECT_EQ(reader->latest(), downgraded);
  EXPECT_EQ(column("SELECT release FROM published_releases ORDER BY id"),
            (std::vector<std::string>{"2025-01-30", "2024-06-10"}));

  const std::unique_ptr<Registry> sqlite =
      openRegistry(RegistryLocation{dir_.path() / "sqlite-data", location(keyFile_).migrationsDir, std::nullopt, {}});
  EXPECT_EQ(sqlite->openPublishedReleases(), nullptr);
}

// codepayload-import --publish: its answer, a downgrade refused, and no
// publication without a PostgreSQL registry.
TEST_F(PostgresqlRegistryTest, TheImporterPublishesAReleaseToEveryInstance) {
  const std::string url = "postgresql://" + server_->user() + ":" + server_->password() +
                          "@127.0.0.1:" + std::to_string(server_->port()) + "/" + database_;
  const auto import = [&](const std::string& registryUrl, const std::string& arguments, int& status) {
    const std::string command =
        "env -i PATH=/usr/bin:/bin CODEPAYLOAD_DATA_DIR='" + (dir_.path() / "data").string() +
        "' CODEPAYLOAD_REGISTRY_URL='" + registryUrl + "' CODEPAYLOAD_KEY_ENCRYPTION_KEY_FILE='" + keyFile_.string() +
        "' '" + CODEPAYLOAD_IMPORT_EXECUTABLE + "' " + arguments + " 2>'" + (dir_.path() / "import.err").string() + "'";
    return commandOutput(command, status);
  };
  const std::string linkTypes = "--link-types '" + testing::linkTypesFile().string() + "' ";
  int status = -1;
  const std::string answer =
      import(url, "--publish " + linkTypes + "'" + testing::releaseFile("2025-01-30").string() + "'", status);
  EXPECT_EQ(status, 0) << testing::readFile(dir_.path() / "import.err");
  const std::vector<std::string> digests = column("SELECT sha256 FROM published_releases");
  ASSERT_EQ(digests.size(), 1u);
  EXPECT_EQ(answer, R"({"release":"2025-01-30","ais":536,"linkTypes":60,"registry":")" + displayName() +
                        R"(","publication":1,"sha256":")" + digests.front() + "\"}\n");
  // Nothing is written in the data dir: the instances install it.
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "data" / "rules.db"));

  EXPECT_EQ(import(url, "--publish " + linkTypes + "'" + testing::releaseFile("2024-06-10").string() + "'", status),
            "");
  EXPECT_EQ(status, 1);
  EXPECT_EQ(testing::readFile(dir_.path() / "import.err"),
            "the registry serves GS1 release 2025-01-30, newer than release 2024-06-10; publishing it would replace "
            "newer rules by older ones (--allow-downgrade publishes it anyway)\n");

  EXPECT_EQ(import("", "--publish " + linkTypes + "'" + testing::releaseFile("2024-06-10").string() + "'", status), "");
  EXPECT_EQ(status, 78);
  EXPECT_EQ(testing::readFile(dir_.path() / "import.err"),
            "codepayload-import: --publish: registry.url is empty, so the registry is the SQLite one of one instance, "
            "which serves the rule database an import without --publish writes; set registry.url (or "
            "CODEPAYLOAD_REGISTRY_URL) to the instances' PostgreSQL registry\n");
  EXPECT_EQ(column("SELECT release FROM published_releases"), (std::vector<std::string>{"2025-01-30"}));
}

}  // namespace
}  // namespace codepayload::app
