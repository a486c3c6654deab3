// Two instances of the real service, each with its own data directory and
// TLS certificate, on one PostgreSQL registry with one key-encryption key, as
// a deployment behind a load balancer runs them: what one instance issues the
// other accepts, and a change made through one holds on the other within 2 s.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "app/registry_url.h"
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

  // An instance of the service on the shared registry.
  std::unique_ptr<ServiceHarness> instance() const {
    return std::make_unique<ServiceHarness>([this](ServerConfig& config) {
      config.postgresqlRegistry = app::PostgresqlRegistry{
          cluster_->connectionString(database_),
          "postgresql://" + cluster_->user() + "@127.0.0.1:" + std::to_string(cluster_->port()) + "/" + database_};
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

}  // namespace
}  // namespace codepayload::server
