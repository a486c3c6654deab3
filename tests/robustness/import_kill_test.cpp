// kill -9 of codepayload-import at random (seeded) moments while the service
// serves /codes from the same data directory: the rules database is always a
// complete old or complete new release, the service keeps (or switches to)
// exactly what the file holds, and no request fails meanwhile.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <random>
#include <string>
#include <thread>

#include "db/rule_store.h"
#include "tests/robustness/child_process.h"
#include "tests/robustness/fault_support.h"
#include "tests/robustness/load_generator.h"
#include "tests/robustness/requests.h"

namespace codepayload::robustness {
namespace {

using server::testing::ServiceHarness;
using Clock = std::chrono::steady_clock;

constexpr const char* kOld = "2025-01-30";
constexpr const char* kNew = "2026-01-27";

// AIs after range expansion, and link types, of each release.
std::size_t aiCount(const std::string& release) { return release == kOld ? 536u : 541u; }
constexpr std::size_t kLinkTypes = 60;

std::string healthOf(const std::string& release) { return release == kOld ? kHealth2025 : kHealth2026; }

bool waitForHealth(ServiceHarness& harness, const std::string& expected) {
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  while (Clock::now() < deadline) {
    if (harness.request(server::testing::HttpCall{"GET", "/healthz", {}, ""}).body == expected) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(ImportKill, KillNineAtRandomMomentsLeavesACompleteReleaseInService) {
  const std::uint32_t seed = robustnessSeed();
  SCOPED_TRACE("CODEPAYLOAD_ROBUSTNESS_SEED=" + std::to_string(seed));
  ServiceHarness harness;
  const ServiceEndpoint endpoint{harness.port(), harness.clientContext()};
  const std::string token = harness.token(harness.createClient({"write:codes"}));
  const std::filesystem::path database = harness.dataDir() / "rules.db";
  const std::filesystem::path outputs = harness.dataDir().parent_path();

  // Complete imports of both releases, timed (the shorter counts, a cold
  // first run is slower): the kills are spread over one and a half times
  // that. The old release stays in service.
  std::chrono::microseconds importTime = std::chrono::hours(1);
  for (const std::string release : {kNew, kOld}) {
    const auto begin = Clock::now();
    const ChildRun run =
        runChild(CODEPAYLOAD_IMPORT_EXECUTABLE, importArguments(database, release), {}, outputs / "import");
    importTime = std::min(importTime, std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - begin));
    ASSERT_EQ(run.exit, (ChildExit{false, 0})) << run.err;
  }
  ASSERT_TRUE(waitForHealth(harness, kHealth2025));

  // Load all along: an item every release accepts, and the AI 717 item whose
  // answer tells which release served it.
  LoadGenerator load(
      endpoint, {requestBytes(codesCall(token, kOneItem)), requestBytes(codesCall(token, kItemWith717))},
      [](std::size_t request, const HttpResult& response) {
        if (response.status != 200) return kUnexpected;
        if (request == 0) return response.body == kOneItemResponse ? 2 : kUnexpected;
        if (response.body == kItemWith717Rejected) return 0;
        return response.body == kItemWith717Accepted ? 1 : kUnexpected;
      },
      3, 2);

  std::mt19937 random(seed);
  std::uniform_int_distribution<std::int64_t> killAfter(0, importTime.count() * 3 / 2);
  std::string inService = kOld;
  int killedMidway = 0;
  int finished = 0;
  constexpr int kRounds = 12;
  for (int round = 0; round < kRounds; ++round) {
    const std::string release = round % 2 == 0 ? kNew : kOld;
    const std::int64_t delay = killAfter(random);
    SCOPED_TRACE("round " + std::to_string(round) + ": import " + release + ", kill -9 after " + std::to_string(delay) +
                 " us");
    ChildProcess import(CODEPAYLOAD_IMPORT_EXECUTABLE, importArguments(database, release), {}, outputs / "import");
    std::this_thread::sleep_for(std::chrono::microseconds(delay));
    const ChildExit exit = import.killNine();
    const Dictionary stored = readRules(database);
    if (exit.killed) {
      ++killedMidway;
      EXPECT_EQ(exit.code, SIGKILL);
      EXPECT_TRUE(stored.release.name == inService || stored.release.name == release) << stored.release.name;
    } else {
      ++finished;
      EXPECT_EQ(exit.code, 0) << import.err();
      EXPECT_EQ(stored.release.name, release);
    }
    EXPECT_EQ(stored.ais.size(), aiCount(stored.release.name));
    EXPECT_EQ(stored.linkTypes.size(), kLinkTypes);
    inService = stored.release.name;
    // The service serves exactly what the file holds.
    EXPECT_TRUE(waitForHealth(harness, healthOf(inService))) << "the service does not serve " << inService;
  }
  const LoadReport report = load.stop();
  // A killed import leaves its hidden temporary file (never the target).
  int temporaries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(database.parent_path())) {
    if (entry.path().filename().string().starts_with(".rules.db.new-")) ++temporaries;
  }
  EXPECT_LE(temporaries, killedMidway);
  EXPECT_GT(killedMidway, 0);
  EXPECT_EQ(report.failed, 0u) << report.firstFailure;
  EXPECT_GT(report.served, 0u);
  EXPECT_EQ(report.served, report.servedByKind[0] + report.servedByKind[1] + report.servedByKind[2]);
  std::printf(
      "import kill: %d rounds, %d killed midway, %d finished first; %llu requests served, %llu failed; "
      "%d temporary files left (seed %u, one import %lld ms)\n",
      kRounds, killedMidway, finished, static_cast<unsigned long long>(report.served),
      static_cast<unsigned long long>(report.failed), temporaries, seed,
      static_cast<long long>(importTime.count() / 1000));
}

}  // namespace
}  // namespace codepayload::robustness
