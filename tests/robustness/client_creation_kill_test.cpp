// kill -9 during API client creation, with real processes: of the admin tool
// in the middle of `client create`, and of the server while the admin tool
// creates clients, and of the server during its first start. Afterwards every
// client is complete (listed whole, with a secret digest) or absent, the
// registry is sound, and every client whose secret was printed gets a token.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>

#include "db/rule_store.h"
#include "tests/robustness/api_client.h"
#include "tests/robustness/child_process.h"
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

struct ListedClient {
  std::string clientId;
  std::string organizationId;
  std::string name;
  std::vector<std::string> scopes;
  std::string state;
};

std::vector<std::string> createArguments(const std::string& organization, const std::string& name) {
  return {"client", "create", "--org", organization, "--name", name, "--scope", "write:codes"};
}

CreatedApiClient printedClient(const std::string& organization, const std::string& out) {
  return CreatedApiClient{organization, jsonMember(out, "clientId"), jsonMember(out, "clientSecret")};
}

std::vector<ListedClient> listClients(const std::filesystem::path& dataDir, const std::string& organization) {
  const AdminResult listed = runAdmin(dataDir, {"client", "list", "--org", organization});
  if (listed.exitCode != 0) throw std::runtime_error("client list failed: " + listed.err);
  Poco::JSON::Parser parser;
  const auto array = parser.parse(listed.out).extract<Poco::JSON::Array::Ptr>();
  std::vector<ListedClient> clients;
  for (std::size_t index = 0; index < array->size(); ++index) {
    const auto object = array->getObject(static_cast<unsigned>(index));
    ListedClient client{object->getValue<std::string>("clientId"),
                        object->getValue<std::string>("organizationId"),
                        object->getValue<std::string>("name"),
                        {},
                        object->getValue<std::string>("state")};
    const auto scopes = object->getArray("scopes");
    for (std::size_t scope = 0; scope < scopes->size(); ++scope) {
      client.scopes.push_back(scopes->getElement<std::string>(static_cast<unsigned>(scope)));
    }
    clients.push_back(std::move(client));
  }
  return clients;
}

// Every listed client is whole and of `organization`; names are unique.
void expectCompleteClients(const std::vector<ListedClient>& clients, const std::string& organization) {
  std::set<std::string> names;
  for (const ListedClient& client : clients) {
    SCOPED_TRACE(client.clientId);
    EXPECT_EQ(client.organizationId, organization);
    EXPECT_EQ(client.scopes, std::vector<std::string>{"write:codes"});
    EXPECT_EQ(client.state, "active");
    EXPECT_TRUE(names.insert(client.name).second) << "two clients named " << client.name;
  }
}

TEST(ClientCreationKill, KillNineOfTheAdminToolLeavesACompleteClientOrNone) {
  const std::uint32_t seed = robustnessSeed();
  SCOPED_TRACE("CODEPAYLOAD_ROBUSTNESS_SEED=" + std::to_string(seed));
  TemporaryFolder folder("admin-kill");
  const std::filesystem::path dataDir = folder.path() / "data";
  ServerProcess server(dataDir);
  // A client for the load, and one timed creation: the kills are spread over
  // twice its time, so some land late in a creation and some after it.
  const CreatedApiClient loader = createApiClient(dataDir, "load");
  const std::string organization = loader.organizationId;
  std::map<std::string, CreatedApiClient> printed;  // by name
  const auto begin = Clock::now();
  const AdminResult timed = runAdmin(dataDir, createArguments(organization, "timed"));
  const auto createTime = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - begin);
  ASSERT_EQ(timed.exitCode, 0) << timed.err;
  printed["timed"] = printedClient(organization, timed.out);
  LoadGenerator load(
      server.endpoint(), {requestBytes(codesCall(acceptedAccessToken(server.endpoint(), loader), kOneItem))},
      [](std::size_t, const HttpResult& response) {
        return response.status == 200 && response.body == kOneItemResponse ? 0 : kUnexpected;
      },
      1, 2);

  std::mt19937 random(seed);
  std::uniform_int_distribution<std::int64_t> killAfter(0, createTime.count() * 2);
  std::set<std::string> killedNames;
  int completedRounds = 0;
  constexpr int kRounds = 16;
  for (int round = 0; round < kRounds; ++round) {
    const std::string name = "round-" + std::to_string(round);
    const std::int64_t delay = killAfter(random);
    SCOPED_TRACE(name + ": kill -9 after " + std::to_string(delay) + " us");
    ChildProcess admin(CODEPAYLOAD_ADMIN_EXECUTABLE, createArguments(organization, name),
                       {{"CODEPAYLOAD_DATA_DIR", dataDir.string()}}, folder.path() / "admin");
    std::this_thread::sleep_for(std::chrono::microseconds(delay));
    const ChildExit exit = admin.killNine();
    if (exit.killed) {
      EXPECT_EQ(exit.code, SIGKILL);
      killedNames.insert(name);
    } else {
      ASSERT_EQ(exit.code, 0) << admin.err();
      printed[name] = printedClient(organization, admin.out());
      ++completedRounds;
    }
  }

  const std::vector<ListedClient> clients = listClients(dataDir, organization);
  expectCompleteClients(clients, organization);
  int killedButComplete = 0;
  for (const ListedClient& client : clients) {
    if (client.name == "load") continue;
    if (killedNames.count(client.name) != 0) {
      ++killedButComplete;  // killed after the commit, before the secret was printed
    } else {
      ASSERT_EQ(printed.count(client.name), 1u) << "listed but never created: " << client.name;
      EXPECT_EQ(client.clientId, printed[client.name].clientId);
    }
  }
  std::set<std::string> listedNames;
  for (const ListedClient& client : clients) listedNames.insert(client.name);
  for (const auto& [name, client] : printed) {
    EXPECT_EQ(listedNames.count(name), 1u) << "printed but not listed: " << name;
    EXPECT_EQ(requestToken(server.endpoint(), client).status, 200) << name;
  }
  EXPECT_EQ(integrityCheck(dataDir / "registry.db"), "ok");
  EXPECT_EQ(incompleteClients(dataDir / "registry.db"), 0);
  EXPECT_GT(killedNames.size(), 0u);

  const LoadReport report = load.stop();
  EXPECT_EQ(report.failed, 0u) << report.firstFailure << "\nserver log:\n" << server.process().err();
  EXPECT_GT(report.served, 0u);
  std::printf(
      "admin kill: %d rounds, %zu killed (%d of them after the commit), %d completed; %llu requests served, "
      "%llu failed (seed %u)\n",
      kRounds, killedNames.size(), killedButComplete, completedRounds, static_cast<unsigned long long>(report.served),
      static_cast<unsigned long long>(report.failed), seed);
}

TEST(ClientCreationKill, KillNineOfTheServerWhileClientsAreCreatedLosesNone) {
  const std::uint32_t seed = robustnessSeed();
  SCOPED_TRACE("CODEPAYLOAD_ROBUSTNESS_SEED=" + std::to_string(seed));
  TemporaryFolder folder("server-kill");
  const std::filesystem::path dataDir = folder.path() / "data";
  auto server = std::make_unique<ServerProcess>(dataDir);
  const std::string organization = createApiClient(dataDir, "first").organizationId;

  // The admin tool creates clients one after another while the server is
  // killed and restarted under it; every creation must succeed.
  std::atomic<bool> creating{true};
  std::vector<std::pair<std::string, CreatedApiClient>> created;
  std::vector<std::string> failures;
  std::thread admin([&] {
    for (int index = 0; creating && index < 200; ++index) {
      const std::string name = "steady-" + std::to_string(index);
      const AdminResult result = runAdmin(dataDir, createArguments(organization, name));
      if (result.exitCode == 0) {
        created.emplace_back(name, printedClient(organization, result.out));
      } else {
        failures.push_back(name + ": exit " + std::to_string(result.exitCode) + ": " + result.err);
      }
    }
  });
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> killAfterMs(50, 400);
  constexpr int kServerKills = 4;
  for (int kill = 0; kill < kServerKills; ++kill) {
    std::this_thread::sleep_for(std::chrono::milliseconds(killAfterMs(random)));
    const ChildExit exit = server->process().killNine();
    EXPECT_EQ(exit, (ChildExit{true, SIGKILL}));
    server.reset();
    server = std::make_unique<ServerProcess>(dataDir);
  }
  creating = false;
  admin.join();

  EXPECT_TRUE(failures.empty()) << failures.front();
  ASSERT_GT(created.size(), 0u);
  std::vector<ListedClient> clients = listClients(dataDir, organization);
  expectCompleteClients(clients, organization);
  ASSERT_FALSE(clients.empty());
  EXPECT_EQ(clients.front().name, "first");
  clients.erase(clients.begin());
  EXPECT_EQ(clients.size(), created.size());
  for (std::size_t index = 0; index < created.size() && index < clients.size(); ++index) {
    EXPECT_EQ(clients[index].name, created[index].first);
    EXPECT_EQ(clients[index].clientId, created[index].second.clientId);
  }
  for (const auto& [name, client] : created) EXPECT_EQ(requestToken(server->endpoint(), client).status, 200) << name;
  EXPECT_EQ(integrityCheck(dataDir / "registry.db"), "ok");
  EXPECT_EQ(incompleteClients(dataDir / "registry.db"), 0);
  std::printf("server kill: %d kills of the server while %zu clients were created, %zu creations failed (seed %u)\n",
              kServerKills, created.size(), failures.size(), seed);
}

TEST(ClientCreationKill, KillNineOfTheServerDuringItsFirstStartLeavesAStartableDataDirectory) {
  const std::uint32_t seed = robustnessSeed();
  SCOPED_TRACE("CODEPAYLOAD_ROBUSTNESS_SEED=" + std::to_string(seed));
  // How long a first start takes (rules database from the baseline, registry,
  // pepper, signing key, development certificate), measured on a scratch
  // directory; the kills are spread over that time (at most 3 s).
  std::chrono::microseconds startTime{0};
  {
    TemporaryFolder scratch("first-start");
    const auto begin = Clock::now();
    ServerProcess measured(scratch.path() / "data");
    startTime = std::min<std::chrono::microseconds>(
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - begin), std::chrono::seconds(3));
  }

  TemporaryFolder folder("start-kill");
  const std::filesystem::path dataDir = folder.path() / "data";
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::int64_t> killAfter(0, startTime.count());
  constexpr int kRounds = 8;
  int killedBeforeListening = 0;
  for (int round = 0; round < kRounds; ++round) {
    const std::int64_t delay = killAfter(random);
    SCOPED_TRACE("round " + std::to_string(round) + ": kill -9 after " + std::to_string(delay) + " us");
    std::filesystem::remove(dataDir / "server.port");
    ChildProcess starting(CODEPAYLOAD_SERVER_EXECUTABLE, {}, serverEnvironment(dataDir),
                          folder.path() / ("start-" + std::to_string(round)));
    std::this_thread::sleep_for(std::chrono::microseconds(delay));
    if (!std::filesystem::exists(dataDir / "server.port")) ++killedBeforeListening;
    starting.killNine();
  }

  // Whatever the kills left, the next start works and serves.
  ServerProcess server(dataDir);
  EXPECT_EQ(healthBody(server.endpoint()), kHealth2026);
  EXPECT_EQ(readRules(dataDir / "rules.db").release.name, "2026-01-27");
  const CreatedApiClient client = createApiClient(dataDir, "after-kills");
  const HttpResult codes =
      exchange(server.endpoint(), codesCall(acceptedAccessToken(server.endpoint(), client), kOneItem));
  EXPECT_EQ(codes.status, 200);
  EXPECT_EQ(codes.body, kOneItemResponse);
  EXPECT_EQ(integrityCheck(dataDir / "registry.db"), "ok");
  std::printf("first start kill: %d kills within the first %lld ms of a start, %d before it listened (seed %u)\n",
              kRounds, static_cast<long long>(startTime.count() / 1000), killedBeforeListening, seed);
}

}  // namespace
}  // namespace codepayload::robustness
