// The registry under concurrent use by the server and the admin tool: WAL
// journal (readers never wait for a writer) and a busy timeout (a writer waits
// for another writer instead of failing), so admin changes during load fail
// neither the change nor a request.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/robustness/api_client.h"
#include "tests/robustness/fault_support.h"
#include "tests/robustness/load_generator.h"
#include "tests/robustness/registry_file.h"
#include "tests/robustness/requests.h"
#include "tests/robustness/server_process.h"
#include "tests/server/support/admin_process.h"

namespace codepayload::robustness {
namespace {

using server::testing::AdminResult;
using server::testing::jsonMember;
using server::testing::runAdmin;
using Clock = std::chrono::steady_clock;

class RegistryLocking : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<ServerProcess>(dataDir_);
    const CreatedApiClient client = createApiClient(dataDir_, "load");
    organization_ = client.organizationId;
    clientId_ = client.clientId;
    secret_ = client.secret;
    accessToken_ = acceptedAccessToken(server_->endpoint(), client);
  }

  AdminResult createClient(const std::string& name) {
    return runAdmin(dataDir_, {"client", "create", "--org", organization_, "--name", name, "--scope", "write:codes"});
  }

  // /codes load plus token requests: every answer must be the expected one.
  std::unique_ptr<LoadGenerator> startLoad() {
    return std::make_unique<LoadGenerator>(
        server_->endpoint(),
        std::vector<std::string>{requestBytes(codesCall(accessToken_, kOneItem)),
                                 requestBytes(codesCall(accessToken_, kOneItem)),
                                 requestBytes(codesCall(accessToken_, kOneItem))},
        [](std::size_t, const HttpResult& response) {
          return response.status == 200 && response.body == kOneItemResponse ? 0 : kUnexpected;
        },
        1, 2);
  }

  TemporaryFolder folder_{"registry-locking"};
  std::filesystem::path dataDir_ = folder_.path() / "data";
  std::unique_ptr<ServerProcess> server_;
  std::string organization_;
  std::string clientId_;
  std::string secret_;
  std::string accessToken_;
};

TEST_F(RegistryLocking, TheRegistryIsInWalMode) { EXPECT_EQ(journalMode(dataDir_ / "registry.db"), "wal"); }

TEST_F(RegistryLocking, AnAdminChangeWaitsForAnotherWriterInsteadOfFailing) {
  // Another writer holds the lock for 1.5 s; tokens (reads) go on meanwhile.
  auto lock = std::make_unique<RegistryWriteLock>(dataDir_ / "registry.db");
  std::thread release([&lock] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    lock.reset();
  });
  const auto asked = Clock::now();
  std::vector<int> tokenStatuses;
  std::thread reader([&] {
    while (Clock::now() - asked < std::chrono::milliseconds(1200)) {
      tokenStatuses.push_back(exchange(server_->endpoint(), tokenCall(clientId_, secret_)).status);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  const AdminResult created = createClient("while-locked");
  const auto waited = Clock::now() - asked;
  release.join();
  reader.join();
  EXPECT_EQ(created.exitCode, 0) << created.err;
  EXPECT_EQ(created.err, server::testing::registryLine(dataDir_));
  EXPECT_GE(waited, std::chrono::milliseconds(1400)) << "the admin tool did not wait for the lock";
  ASSERT_FALSE(tokenStatuses.empty());
  for (const int status : tokenStatuses) EXPECT_EQ(status, 200);
}

TEST_F(RegistryLocking, AdminChangesDuringLoadFailNoRequestAndNoChange) {
  std::unique_ptr<LoadGenerator> load = startLoad();
  // Token requests at 20 a second beside the /codes load (the issuance cap is
  // 600 a minute per client).
  std::atomic<bool> asking{true};
  std::atomic<int> tokensIssued{0};
  std::atomic<int> tokensRefused{0};
  std::thread tokens([&] {
    while (asking) {
      const HttpResult result = exchange(server_->endpoint(), tokenCall(clientId_, secret_));
      (result.status == 200 ? tokensIssued : tokensRefused)++;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  // Changes of every kind, as fast as the admin tool runs.
  std::vector<std::string> failures;
  int changes = 0;
  for (int round = 0; round < 6; ++round) {
    const AdminResult created = createClient("change-" + std::to_string(round));
    if (created.exitCode != 0) {
      failures.push_back("client create: " + created.err);
      continue;
    }
    const std::string id = jsonMember(created.out, "clientId");
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"client", "block", id}, std::vector<std::string>{"client", "unblock", id},
          std::vector<std::string>{"org", "set-plan", organization_, round % 2 == 0 ? "pro" : "starter"},
          std::vector<std::string>{"client", "delete", id}}) {
      const AdminResult result = runAdmin(dataDir_, command);
      if (result.exitCode != 0) failures.push_back(command[0] + " " + command[1] + ": " + result.err);
      ++changes;
    }
    ++changes;
  }
  asking = false;
  tokens.join();
  const LoadReport report = load->stop();
  EXPECT_TRUE(failures.empty()) << failures.front();
  EXPECT_EQ(report.failed, 0u) << report.firstFailure;
  EXPECT_GT(report.served, 0u);
  EXPECT_EQ(tokensRefused.load(), 0);
  EXPECT_GT(tokensIssued.load(), 0);
  EXPECT_EQ(integrityCheck(dataDir_ / "registry.db"), "ok");
  std::printf("registry under load: %d admin changes, %llu /codes requests and %d tokens served, none failed\n",
              changes, static_cast<unsigned long long>(report.served), tokensIssued.load());
}

}  // namespace
}  // namespace codepayload::robustness
