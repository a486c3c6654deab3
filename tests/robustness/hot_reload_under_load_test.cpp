// Hot reload under load, with real processes: codepayload-server serves the
// 2025-01-30 rules to a load generator, codepayload-import installs
// 2026-01-27 beside it, and the answers switch from "(717) unknown" to
// "(717) accepted": no request fails, no answer mixes the two releases, and no
// client sees the old rules again once it has seen the new ones.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <thread>

#include "tests/robustness/api_client.h"
#include "tests/robustness/child_process.h"
#include "tests/robustness/fault_support.h"
#include "tests/robustness/load_generator.h"
#include "tests/robustness/requests.h"
#include "tests/robustness/server_process.h"

namespace codepayload::robustness {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kOldRules = 0;
constexpr int kNewRules = 1;
constexpr int kBatchItems = 50;

// A batch of AI 717 items, and its answer under each release.
struct Batch {
  std::string request;
  std::string accepted;
  std::string rejected;
};

Batch batchWith717() {
  Batch batch{R"({"codes":[)", R"({"codes":[)", R"({"codes":[],"failures":[)"};
  for (int index = 0; index < kBatchItems; ++index) {
    const std::string separator = index == 0 ? "" : ",";
    const std::string reference = "b" + std::to_string(index);
    const std::string value = "SRN" + std::to_string(index);
    batch.request += separator + R"({"reference":")" + reference +
                     R"(","primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"717","value":")" + value +
                     R"("}],"extensionParameters":[]})";
    batch.accepted += separator + R"({"reference":")" + reference + R"(","barcodeText":"(01)09506000134352(717))" +
                      value + R"(","hri":"(01)09506000134352(717))" + value + R"("})";
    batch.rejected += separator + R"({"reference":")" + reference +
                      R"(","errors":[{"code":"Validation.Invalid.ais.0","path":"ais.0","args":["717","unknownAi"],)"
                      R"("message":"AI '717' is not in the GS1 Barcode Syntax Dictionary."}]})";
  }
  batch.request += "]}";
  batch.accepted += R"(],"failures":[]})";
  batch.rejected += "]}";
  return batch;
}

TEST(HotReloadUnderLoad, ANewReleaseIsServedWithoutAFailedOrMixedAnswer) {
  TemporaryFolder folder("hot-reload");
  const std::filesystem::path dataDir = folder.path() / "data";
  std::filesystem::create_directories(dataDir);
  const std::filesystem::path database = dataDir / "rules.db";
  const ChildRun old = runChild(CODEPAYLOAD_IMPORT_EXECUTABLE, importArguments(database, "2025-01-30"), {},
                                folder.path() / "import-old");
  ASSERT_EQ(old.exit, (ChildExit{false, 0})) << old.err;

  ServerProcess server(dataDir);
  ASSERT_EQ(healthBody(server.endpoint()), kHealth2025);
  const std::string accessToken = acceptedAccessToken(server.endpoint(), createApiClient(dataDir, "reload"));

  const Batch batch = batchWith717();
  LoadGenerator load(
      server.endpoint(),
      {requestBytes(codesCall(accessToken, kItemWith717)), requestBytes(codesCall(accessToken, batch.request))},
      [&batch](std::size_t request, const HttpResult& response) {
        if (response.status != 200) return kUnexpected;
        const std::string_view accepted = request == 0 ? std::string_view(kItemWith717Accepted) : batch.accepted;
        const std::string_view rejected = request == 0 ? std::string_view(kItemWith717Rejected) : batch.rejected;
        if (response.body == rejected) return kOldRules;
        return response.body == accepted ? kNewRules : kUnexpected;
      },
      2, 4);

  ASSERT_TRUE(load.waitForCompleted(2000, std::chrono::seconds(30)));
  const std::uint64_t beforeImport = load.completed();
  const auto importStarted = Clock::now();
  const ChildRun fresh = runChild(CODEPAYLOAD_IMPORT_EXECUTABLE, importArguments(database, "2026-01-27"), {},
                                  folder.path() / "import-new");
  ASSERT_EQ(fresh.exit, (ChildExit{false, 0})) << fresh.err;
  while (healthBody(server.endpoint()) != kHealth2026 && Clock::now() - importStarted < std::chrono::seconds(10)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const auto switched = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - importStarted);
  const std::uint64_t duringReload = load.completed() - beforeImport;
  ASSERT_TRUE(load.waitForCompleted(load.completed() + 2000, std::chrono::seconds(30)));
  const LoadReport report = load.stop();

  EXPECT_EQ(healthBody(server.endpoint()), kHealth2026);
  EXPECT_EQ(report.failed, 0u) << report.firstFailure;
  EXPECT_GT(report.servedByKind[kOldRules], 0u);
  EXPECT_GT(report.servedByKind[kNewRules], 0u);
  for (const std::vector<int>& sequence : report.kindSequences) {
    EXPECT_EQ(sequence, (std::vector<int>{kOldRules, kNewRules}));
  }
  std::printf(
      "hot reload under load: %llu requests (%llu on the old rules, %llu on the new), %llu while the import "
      "ran and the new rules came into service (%lld ms), %llu failed, %.0f requests/s\n",
      static_cast<unsigned long long>(report.served), static_cast<unsigned long long>(report.servedByKind[kOldRules]),
      static_cast<unsigned long long>(report.servedByKind[kNewRules]), static_cast<unsigned long long>(duringReload),
      static_cast<long long>(switched.count()), static_cast<unsigned long long>(report.failed),
      report.requestsPerSecond());
}

}  // namespace
}  // namespace codepayload::robustness
