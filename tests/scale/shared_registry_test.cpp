// Two instances of the real service, each with its own data directory and
// TLS certificate, on one PostgreSQL registry with one key-encryption key, as
// a deployment behind a load balancer runs them: what one instance issues the
// other accepts, and a change made through one holds on the other within 2 s.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "app/registry.h"
#include "app/registry_copy.h"
#include "app/registry_url.h"
#include "auth/auth_service.h"
#include "db/import/rule_import.h"
#include "plugins/builtin_plugins.h"
#include "tests/server/support/sample_requests.h"
#include "tests/server/support/service_harness.h"
#include "tests/support/scratch_postgresql.h"
#include "tests/tools/test_files.h"

namespace codepayload::server {
namespace {

using testing::ApiClient;
using testing::HttpCall;
using testing::HttpResult;
using testing::kOneItem;
using testing::kOneItemResponse;
using testing::ServiceHarness;

class SharedRegistryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    try {
      cluster_ = std::make_unique<codepayload::testing::ScratchPostgresql>();
    } catch (const std::exception& error) {
      startError_ = error.what();
    }
  }
  static void TearDownTestSuite() { cluster_.reset(); }

  void SetUp() override {
    // Fails, never skips: a missing server must not turn these tests green.
    ASSERT_NE(cluster_, nullptr) << "cannot start a scratch PostgreSQL: " << startError_;
    static int databases = 0;
    database_ = "instances_" + std::to_string(++databases);
    cluster_->createDatabase(database_);
    keyFile_ = keyDir_.path() / "key-encryption-key";
    codepayload::testing::writeFile(keyFile_, std::string(32, 'k'));
    ::chmod(keyFile_.c_str(), 0600);
  }

  app::PostgresqlRegistry sharedRegistry() const {
    return app::PostgresqlRegistry{
        cluster_->connectionString(database_),
        "postgresql://" + cluster_->user() + "@127.0.0.1:" + std::to_string(cluster_->port()) + "/" + database_};
  }

  // An instance of the service on the shared registry.
  std::unique_ptr<ServiceHarness> instance() const {
    return std::make_unique<ServiceHarness>([this](ServerConfig& config) {
      config.postgresqlRegistry = sharedRegistry();
      config.keyEncryptionKeyFile = keyFile_;
    });
  }

  static std::unique_ptr<codepayload::testing::ScratchPostgresql> cluster_;
  static std::string startError_;
  codepayload::testing::TempDir keyDir_;
  std::string database_;
  std::filesystem::path keyFile_;
};

std::unique_ptr<codepayload::testing::ScratchPostgresql> SharedRegistryTest::cluster_;
std::string SharedRegistryTest::startError_;

TEST_F(SharedRegistryTest, WhatOneInstanceIssuesTheOtherAccepts) {
  const std::unique_ptr<ServiceHarness> first = instance();
  const std::unique_ptr<ServiceHarness> second = instance();
  // Both publish the one key.
  const HttpResult firstKeys = first->request(HttpCall{"GET", "/.well-known/jwks.json", {}, ""});
  EXPECT_EQ(firstKeys.status, 200);
  EXPECT_EQ(second->request(HttpCall{"GET", "/.well-known/jwks.json", {}, ""}).body, firstKeys.body);

  // A client created through the first; its secret checks on the second, and
  // each instance's token works on the other.
  const ApiClient client = first->createClient({"write:codes"});
  second->service().auth().refreshRegistryView();
  const std::string fromFirst = first->token(client);
  const std::string fromSecond = second->token(client);
  ASSERT_FALSE(fromFirst.empty());
  ASSERT_FALSE(fromSecond.empty());
  const HttpResult onSecond = second->codes(fromFirst, kOneItem);
  EXPECT_EQ(onSecond.status, 200) << onSecond.body;
  EXPECT_EQ(onSecond.body, kOneItemResponse);
  EXPECT_EQ(first->codes(fromSecond, kOneItem).status, 200);
  // A refusal reads the registry: the lookups open their connections.
  for (int attempt = 0; attempt < 8; ++attempt) {
    second->request(HttpCall{"POST",
                             "/oauth/token",
                             {{"Authorization", testing::basicAuthorization(client.clientId, "not-the-secret")},
                              {"Content-Type", "application/x-www-form-urlencoded"}},
                             "grant_type=client_credentials"});
  }
  // docs/scaling.md: at most 14 connections an instance.
  const std::string connections =
      cluster_->query(database_,
                      "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                      " AND application_name = 'codepayload'");
  EXPECT_LE(std::stoi(connections), 28) << connections;
  std::cout << "[ scale ] two instances hold " << connections << " connections\n";
}

TEST_F(SharedRegistryTest, ABlockOnOneInstanceHoldsOnTheOtherWithinTwoSeconds) {
  const std::unique_ptr<ServiceHarness> first = instance();
  const std::unique_ptr<ServiceHarness> second = instance();
  const ApiClient client = first->createClient({"write:codes"});
  second->service().auth().refreshRegistryView();
  const std::string token = first->token(client);
  ASSERT_EQ(second->codes(token, kOneItem).status, 200);

  const auto blocked = std::chrono::steady_clock::now();
  first->service().auth().registry().setClientState(client.clientId, auth::ClientState::Blocked);
  int status = 200;
  while (status == 200 && std::chrono::steady_clock::now() - blocked < std::chrono::seconds(3)) {
    status = second->codes(token, kOneItem).status;
    if (status == 200) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - blocked);
  EXPECT_EQ(status, 401);
  EXPECT_LT(took, std::chrono::seconds(2))
      << "the second instance refused the blocked client's token after " << took.count() << " ms";
  // And the token endpoint of the second refuses a new token at once.
  const HttpResult refused =
      second->request(HttpCall{"POST",
                               "/oauth/token",
                               {{"Authorization", testing::basicAuthorization(client.clientId, client.secret)},
                                {"Content-Type", "application/x-www-form-urlencoded"}},
                               "grant_type=client_credentials"});
  EXPECT_EQ(refused.status, 401) << refused.body;
}

// Growing from one machine: a server on SQLite issues a token, its registry is
// copied into PostgreSQL (codepayload-admin registry copy), and a server on
// PostgreSQL accepts the token and the secret from before the move.
TEST_F(SharedRegistryTest, AServerOnTheCopiedRegistryAcceptsWhatWasIssuedBeforeTheMove) {
  ServiceHarness alone;
  const ApiClient client = alone.createClient({"write:codes"});
  const std::string token = alone.token(client);
  ASSERT_FALSE(token.empty());
  alone.stop();
  const std::filesystem::path migrations = auth::registryMigrationsDir(alone.service().config().schemaDir);
  app::copyRegistry(app::RegistryLocation{alone.dataDir(), migrations, std::nullopt, {}},
                    app::RegistryLocation{alone.dataDir(), migrations, sharedRegistry(), keyFile_});

  const std::unique_ptr<ServiceHarness> moved = instance();
  const HttpResult answered = moved->codes(token, kOneItem);
  EXPECT_EQ(answered.status, 200) << answered.body;
  EXPECT_EQ(answered.body, kOneItemResponse);
  EXPECT_FALSE(moved->token(client).empty());
}

// A publication an instance cannot load (here no rule database at all) is
// refused there with one line in its log, and the release in service stays;
// the next publication is served; an instance that starts later begins with
// it, never with the shipped baseline.
TEST_F(SharedRegistryTest, APublicationThatDoesNotLoadIsRefusedAndTheNextOneIsServed) {
  const std::unique_ptr<ServiceHarness> first = instance();
  const std::filesystem::path rulesDatabase = first->dataDir() / "rules.db";
  const app::RegistryLocation location{keyDir_.path() / "publisher-data",
                                       auth::registryMigrationsDir(first->service().config().schemaDir),
                                       sharedRegistry(), keyFile_};
  const std::unique_ptr<app::Registry> publisher = app::openRegistry(location);
  const std::unique_ptr<app::PublishedReleases> releases = publisher->openPublishedReleases();
  const HttpCall health{"GET", "/healthz", {}, ""};
  ASSERT_EQ(first->request(health).body, R"({"status":"ok","release":"2026-01-27"})");

  releases->publish("2026-02-01", "not a rule database", false);
  first->service().reload();  // checks the publication now, as SIGHUP does
  EXPECT_EQ(first->request(health).body, R"({"status":"ok","release":"2026-01-27"})");
  const std::vector<std::string> log = first->serviceLog();
  const std::string refusal =
      "published release 2026-02-01 (publication 1) does not load here, keeping the rules "
      "database " +
      rulesDatabase.string() + ": ";
  EXPECT_EQ(std::count_if(log.begin(), log.end(),
                          [&](const std::string& line) { return line.find(refusal) != std::string::npos; }),
            1);

  const codepayload::testing::TempDir scratch;
  importer::ImportOptions options;
  options.releaseFile = codepayload::testing::releaseFile("2025-01-30");
  options.linkTypesFile = codepayload::testing::linkTypesFile();
  options.dbPath = scratch.path() / "rules.db";
  options.rulesDir = first->service().config().rulesDir;
  options.schemaDir = first->service().config().schemaDir;
  importer::importRelease(options, lint::builtinLinters());
  const app::PublishedRelease published =
      releases->publish("2025-01-30", codepayload::testing::readFile(options.dbPath), true);
  EXPECT_EQ(published.id, 2);
  first->service().reload();
  EXPECT_EQ(first->request(health).body, R"({"status":"ok","release":"2025-01-30"})");
  EXPECT_EQ(codepayload::testing::readFile(rulesDatabase), codepayload::testing::readFile(options.dbPath));

  const std::unique_ptr<ServiceHarness> later = instance();
  EXPECT_EQ(later->request(health).body, R"({"status":"ok","release":"2025-01-30"})");
  for (const std::string& line : later->serviceLog()) {
    EXPECT_EQ(line.find("from the shipped baseline"), std::string::npos) << line;
  }
}

// PostgreSQL stopped: /codes keeps answering valid tokens from memory and
// readiness says "degraded"; the token endpoint answers 500 server_error; once
// the database is back, tokens are issued again without a restart.
TEST_F(SharedRegistryTest, ADatabaseOutageLeavesCodesAnsweringAndTokensRecoverByThemselves) {
  const std::unique_ptr<ServiceHarness> service = instance();
  const ApiClient client = service->createClient({"write:codes"});
  const std::string token = service->token(client);
  ASSERT_FALSE(token.empty());
  const HttpCall tokenRequest{"POST",
                              "/oauth/token",
                              {{"Authorization", testing::basicAuthorization(client.clientId, client.secret)},
                               {"Content-Type", "application/x-www-form-urlencoded"}},
                              "grant_type=client_credentials"};

  cluster_->stopServer();
  // The view's next check fails (a poll every 250 ms, and just after each second).
  std::string readiness;
  for (int attempt = 0; attempt < 100 && readiness.find(R"("status":"degraded")") == std::string::npos; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const HttpResult ready = service->request(HttpCall{"GET", "/healthz/ready", {}, ""});
    EXPECT_EQ(ready.status, 200);
    readiness = ready.body;
  }
  EXPECT_TRUE(readiness.starts_with(R"({"status":"degraded","release":)")) << readiness;
  EXPECT_NE(readiness.find(R"("registry":"the latest check could not read the registry (last read )"),
            std::string::npos)
      << readiness;
  for (int request = 0; request < 20; ++request) EXPECT_EQ(service->codes(token, kOneItem).body, kOneItemResponse);
  // The view vouches for a secret only in the second of its last good check
  // (D-T6): from the next second on, the endpoint must ask the database.
  HttpResult refused;
  const auto stopped = std::chrono::steady_clock::now();
  while (refused.status != 500 && std::chrono::steady_clock::now() - stopped < std::chrono::seconds(3)) {
    refused = service->request(tokenRequest);
    if (refused.status != 500) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(refused.status, 500);
  EXPECT_EQ(
      refused.body,
      R"({"error":"server_error","error_description":"the server could not answer this request; it is safe to retry"})");

  cluster_->startServer();
  int status = 0;
  const auto restarted = std::chrono::steady_clock::now();
  while (status != 200 && std::chrono::steady_clock::now() - restarted < std::chrono::seconds(10)) {
    status = service->request(tokenRequest).status;
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(status, 200);
  // And the view's own checks read it again.
  std::string recovered;
  for (int attempt = 0; attempt < 60 && !recovered.starts_with(R"({"status":"ready",)"); ++attempt) {
    recovered = service->request(HttpCall{"GET", "/healthz/ready", {}, ""}).body;
    if (!recovered.starts_with(R"({"status":"ready",)")) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(recovered.starts_with(R"({"status":"ready",)")) << recovered;
}

}  // namespace
}  // namespace codepayload::server
