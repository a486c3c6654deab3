// A newly imported rules database replaces the served rules while requests
// run; none of them fails. A broken file is logged and the rules stay.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/paths.h"
#include "db/import/rule_import.h"
#include "plugins/builtin_plugins.h"
#include "tests/server/support/service_harness.h"
#include "tests/server/support/sample_requests.h"

namespace codepayload::server::testing {
namespace {

std::string releaseOf(ServiceHarness& harness) { return harness.request(HttpCall{"GET", "/healthz", {}, ""}).body; }

bool waitForRelease(ServiceHarness& harness, const std::string& expected) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (std::chrono::steady_clock::now() < deadline) {
    if (releaseOf(harness) == expected) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

TEST(HotReload, ANewlyImportedDatabaseIsServedWithoutFailingARequest) {
  ServiceHarness harness;
  const std::string token = harness.token(harness.createClient({"write:codes"}));
  EXPECT_EQ(releaseOf(harness), R"({"status":"ok","release":"2026-01-27"})");

  std::atomic<bool> running{true};
  std::atomic<int> served{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 2; ++t) {
    clients.emplace_back([&] {
      while (running) {
        const HttpResult result = harness.codes(token, kOneItem);
        (result.status == 200 && result.body == kOneItemResponse ? served : failed)++;
      }
    });
  }

  importer::ImportOptions options;
  options.downgrade = importer::Downgrade::Allow;  // the older release replaces the baseline
  options.releaseFile = std::filesystem::path(CODEPAYLOAD_SHARED_GS1_DIR) / "gs1-syntax-dictionary-2025-01-30.txt";
  options.linkTypesFile = std::filesystem::path(CODEPAYLOAD_SHARED_GS1_DIR) / "link-types.json";
  options.dbPath = harness.dataDir() / "rules.db";
  options.rulesDir = app::defaultRulesDir();
  options.schemaDir = app::defaultSchemaDir();
  const importer::ImportSummary summary = importer::importRelease(options, lint::builtinLinters());
  EXPECT_EQ(summary.release, "2025-01-30");
  EXPECT_TRUE(waitForRelease(harness, R"({"status":"ok","release":"2025-01-30"})"));

  // A file that is not a rules database: logged, the 2025-01-30 rules stay.
  const auto broken = harness.dataDir() / "rules.db.broken";
  std::ofstream(broken) << "not a database";
  std::filesystem::rename(broken, harness.dataDir() / "rules.db");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  bool logged = false;
  while (!logged && std::chrono::steady_clock::now() < deadline) {
    for (const std::string& line : harness.serviceLog()) {
      if (line.starts_with("rules reload from " + (harness.dataDir() / "rules.db").string() +
                           " failed, keeping release 2025-01-30: ")) {
        logged = true;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(logged);
  EXPECT_EQ(releaseOf(harness), R"({"status":"ok","release":"2025-01-30"})");

  running = false;
  for (auto& client : clients) client.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_GT(served.load(), 0);
}

}  // namespace
}  // namespace codepayload::server::testing
