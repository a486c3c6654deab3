// The metrics listener of a service in process (metrics.listen on port 0):
// the counters move by exactly the requests served, the listener answers
// GET /metrics only, shows no client, token or secret, and is off unless
// configured; and the health endpoints /healthz/live and /healthz/ready.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>

#include "app/paths.h"
#include "db/import/rule_import.h"
#include "plugins/builtin_plugins.h"
#include "tests/server/support/service_harness.h"
#include "tests/server/support/metrics_scrape.h"

namespace codepayload::server::testing {
namespace {

const std::string kGood = R"({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]})";
// A wrong check digit: one Validation.Invalid.primaryKey error.
const std::string kBadCheckDigit =
    R"({"primaryKey":{"key":"01","value":"09506000134353"},"ais":[],"extensionParameters":[]})";

class Metrics : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    harness_ = new ServiceHarness([](ServerConfig& config) { config.metricsListen = ListenAddress{"127.0.0.1", 0}; });
    client_ = new ApiClient(harness_->createClient({"write:codes"}));
  }
  static void TearDownTestSuite() {
    delete client_;
    delete harness_;
  }

  static std::map<std::string, double> scrape() {
    return metricSamples(scrapeWhenSettled(*harness_->service().metricsPort()));
  }
  // A scrape once the `requests` sent since `before` are all counted.
  static std::map<std::string, double> scrapeAfter(const std::map<std::string, double>& before, int requests) {
    return metricSamples(scrapeAfterRequests(*harness_->service().metricsPort(), before, requests));
  }

  static ServiceHarness* harness_;
  static ApiClient* client_;
};

ServiceHarness* Metrics::harness_ = nullptr;
ApiClient* Metrics::client_ = nullptr;

double delta(const std::map<std::string, double>& before, const std::map<std::string, double>& after,
             const std::string& sample) {
  return sampleValue(after, sample) - sampleValue(before, sample);
}

TEST_F(Metrics, ThreeAcceptedCodesAndOneRejectedMoveTheCountersByExactlyThat) {
  const std::string token = harness_->token(*client_);
  const auto before = scrape();
  const HttpResult answer =
      harness_->codes(token, "{\"codes\":[" + kGood + "," + kBadCheckDigit + "," + kGood + "," + kGood + "]}");
  ASSERT_EQ(answer.status, 200) << answer.body;
  const auto after = scrapeAfter(before, 1);
  EXPECT_EQ(delta(before, after, "codepayload_codes_accepted_total"), 3);
  EXPECT_EQ(delta(before, after, "codepayload_codes_rejected_total"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_code_errors_total{code="Validation.Invalid.primaryKey"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_code_errors_total{code="Validation.Invalid.ais.<n>"})"), 0);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="/codes",status="200"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_request_duration_seconds_count{route="/codes"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_request_duration_seconds_bucket{route="/codes",le="+Inf"})"), 1);
  EXPECT_GT(delta(before, after, R"(codepayload_http_request_duration_seconds_sum{route="/codes"})"), 0);
  EXPECT_EQ(delta(before, after, "codepayload_tokens_issued_total"), 0);
}

TEST_F(Metrics, RefusedRequestsAreCountedByRouteAndStatus) {
  const auto before = scrape();
  EXPECT_EQ(harness_->codes("not-a-token", "{\"codes\":[]}").status, 401);
  EXPECT_EQ(harness_->request(HttpCall{"GET", "/codes", {}, ""}).status, 405);
  EXPECT_EQ(harness_->request(HttpCall{"GET", "/no/such/path?secret=x", {}, ""}).status, 404);
  EXPECT_EQ(harness_->request(HttpCall{"GET", "/no/other", {}, ""}).status, 404);
  const auto after = scrapeAfter(before, 4);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="/codes",status="401"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="/codes",status="405"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="unmatched",status="404"})"), 2);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_request_duration_seconds_count{route="/codes"})"), 2);
  EXPECT_EQ(delta(before, after, "codepayload_codes_accepted_total"), 0);
  EXPECT_EQ(delta(before, after, "codepayload_codes_rejected_total"), 0);
}

TEST_F(Metrics, TokensIssuedAndRefusedAreCountedByCause) {
  const auto before = scrape();
  harness_->token(*client_);
  harness_->token(*client_);
  const HttpResult wrongSecret =
      harness_->request(HttpCall{"POST",
                                 "/oauth/token",
                                 {{"Authorization", basicAuthorization(client_->clientId, "wrong-secret")},
                                  {"Content-Type", "application/x-www-form-urlencoded"}},
                                 "grant_type=client_credentials"});
  EXPECT_EQ(wrongSecret.status, 401);
  const HttpResult noGrant = harness_->request(
      HttpCall{"POST", "/oauth/token", {{"Content-Type", "application/x-www-form-urlencoded"}}, "scope=write%3Acodes"});
  EXPECT_EQ(noGrant.status, 400);
  EXPECT_EQ(harness_->request(HttpCall{"GET", "/oauth/token", {}, ""}).status, 405);
  const auto after = scrapeAfter(before, 5);
  EXPECT_EQ(delta(before, after, "codepayload_tokens_issued_total"), 2);
  EXPECT_EQ(delta(before, after, R"(codepayload_token_refusals_total{cause="badCredentials"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_token_refusals_total{cause="missingGrantType"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_token_refusals_total{cause="methodNotAllowed"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="/oauth/token",status="200"})"), 2);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="/oauth/token",status="401"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_throttled_requests_total{throttle="token_address"})"), 0);
}

TEST_F(Metrics, TheStateOfTheServiceIsShown) {
  const auto samples = scrape();
  EXPECT_EQ(sampleValue(samples, R"(codepayload_rules_release_info{release="2026-01-27"})"), 1);
  EXPECT_EQ(sampleValue(samples, R"(codepayload_rules_reloads_total{result="success"})"), 0);
  EXPECT_EQ(sampleValue(samples, R"(codepayload_rules_reloads_total{result="failure"})"), 0);
  EXPECT_LT(sampleValue(samples, "codepayload_registry_refresh_age_seconds"), 5);
  EXPECT_EQ(sampleValue(samples, "codepayload_registry_refresh_failures_total"), 0);
  EXPECT_EQ(samples.count(R"(codepayload_usage_writes_total{result="success"})"), 1u);
  EXPECT_EQ(sampleValue(samples, R"(codepayload_usage_writes_total{result="failure"})"), 0);
  EXPECT_EQ(samples.count(R"(codepayload_connections_refused_total{reason="address_limit"})"), 1u);
  EXPECT_EQ(samples.count("codepayload_connections_open"), 1u);
  bool buildInfo = false;
  for (const auto& [sample, value] : samples) {
    if (sample.starts_with("codepayload_build_info{version=\"1.0.0\",commit=\"") &&
        sample.ends_with("\",dictionary_release=\"2026-01-27\"}")) {
      buildInfo = value == 1;
    }
  }
  EXPECT_TRUE(buildInfo);
}

TEST_F(Metrics, TheListenerServesGetMetricsOnlyAndShowsNoClientOrSecret) {
  const std::uint16_t port = *harness_->service().metricsPort();
  EXPECT_NE(port, harness_->port());
  for (const auto& [method, target] : std::map<std::string, std::string>{
           {"GET", "/"}, {"POST", "/metrics"}, {"DELETE", "/metrics"}, {"HEAD", "/codes"}}) {
    const PlainAnswer answer = plainRequest(port, method, target);
    EXPECT_EQ(answer.status, 404) << method << " " << target;
  }
  EXPECT_EQ(plainRequest(port, "GET", "/healthz").status, 404);
  EXPECT_EQ(plainRequest(port, "GET", "/metrics?x=1").status, 200);
  const std::string token = harness_->token(*client_);
  const std::string text = scrapeMetrics(port);
  EXPECT_EQ(text.find(client_->clientId), std::string::npos);
  EXPECT_EQ(text.find(client_->organizationId), std::string::npos);
  EXPECT_EQ(text.find(client_->secret), std::string::npos);
  EXPECT_EQ(text.find(token), std::string::npos);
  EXPECT_EQ(text.find("secret=x"), std::string::npos);
  // The API listener has no /metrics.
  EXPECT_EQ(harness_->request(HttpCall{"GET", "/metrics", {}, ""}).status, 404);
}

TEST_F(Metrics, TheHealthEndpointsAnswerJson) {
  const auto before = scrape();
  const HttpResult live = harness_->request(HttpCall{"GET", "/healthz/live", {}, ""});
  EXPECT_EQ(live.status, 200);
  EXPECT_EQ(live.body, R"({"status":"live"})");
  EXPECT_EQ(live.header("content-type"), "application/json");
  EXPECT_EQ(live.header("cache-control"), "no-store");
  const HttpResult ready = harness_->request(HttpCall{"GET", "/healthz/ready", {}, ""});
  EXPECT_EQ(ready.status, 200);
  EXPECT_EQ(ready.body, R"({"status":"ready","release":"2026-01-27","checks":{"rules":"ok","registry":"ok"}})");
  EXPECT_EQ(ready.header("cache-control"), "no-store");
  const HttpResult health = harness_->request(HttpCall{"GET", "/healthz", {}, ""});
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, R"({"status":"ok","release":"2026-01-27"})");
  EXPECT_EQ(harness_->request(HttpCall{"POST", "/healthz/ready", {}, ""}).status, 405);
  const auto after = scrapeAfter(before, 4);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="/healthz/live",status="200"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="/healthz/ready",status="200"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="/healthz/ready",status="405"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="/healthz",status="200"})"), 1);
}

// Scrapes until `sample` reaches `value` (up to 3 s: the watcher polls rules.db,
// the registry view its database).
bool waitForSample(std::uint16_t port, const std::string& sample, double value) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (std::chrono::steady_clock::now() < deadline) {
    if (sampleValue(metricSamples(scrapeMetrics(port)), sample) >= value) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

TEST(MetricsListener, RulesReloadsAreCountedAndTheReleaseServedIsShown) {
  ServiceHarness harness([](ServerConfig& config) { config.metricsListen = ListenAddress{"127.0.0.1", 0}; });
  const std::uint16_t port = *harness.service().metricsPort();
  importer::ImportOptions options;
  options.downgrade = importer::Downgrade::Allow;  // the older release replaces the baseline
  options.releaseFile = std::filesystem::path(CODEPAYLOAD_SHARED_GS1_DIR) / "gs1-syntax-dictionary-2025-01-30.txt";
  options.linkTypesFile = std::filesystem::path(CODEPAYLOAD_SHARED_GS1_DIR) / "link-types.json";
  options.dbPath = harness.dataDir() / "rules.db";
  options.rulesDir = app::defaultRulesDir();
  options.schemaDir = app::defaultSchemaDir();
  importer::importRelease(options, lint::builtinLinters());
  // Counted once the new rules are swapped in.
  EXPECT_TRUE(waitForSample(port, R"(codepayload_rules_reloads_total{result="success"})", 1));
  auto samples = metricSamples(scrapeMetrics(port));
  EXPECT_EQ(sampleValue(samples, R"(codepayload_rules_release_info{release="2025-01-30"})"), 1);
  EXPECT_EQ(sampleValue(samples, R"(codepayload_rules_release_info{release="2026-01-27"})"), 0);
  EXPECT_EQ(sampleValue(samples, R"(codepayload_rules_reloads_total{result="success"})"), 1);
  EXPECT_EQ(sampleValue(samples, R"(codepayload_rules_reloads_total{result="failure"})"), 0);

  // A file that does not load: counted; the 2025-01-30 rules stay, and the service stays ready.
  const auto broken = harness.dataDir() / "rules.db.broken";
  std::ofstream(broken) << "not a database";
  std::filesystem::rename(broken, harness.dataDir() / "rules.db");
  EXPECT_TRUE(waitForSample(port, R"(codepayload_rules_reloads_total{result="failure"})", 1));
  samples = metricSamples(scrapeMetrics(port));
  EXPECT_EQ(sampleValue(samples, R"(codepayload_rules_reloads_total{result="success"})"), 1);
  EXPECT_EQ(sampleValue(samples, R"(codepayload_rules_release_info{release="2025-01-30"})"), 1);
  const HttpResult ready = harness.request(HttpCall{"GET", "/healthz/ready", {}, ""});
  EXPECT_EQ(ready.status, 200);
  EXPECT_EQ(ready.body, R"({"status":"ready","release":"2025-01-30","checks":{"rules":"ok","registry":"ok"}})");
}

TEST(MetricsListener, ARegistryThatCannotBeReadMakesTheServiceNotReady) {
  ServiceHarness harness([](ServerConfig& config) { config.metricsListen = ListenAddress{"127.0.0.1", 0}; });
  const std::uint16_t port = *harness.service().metricsPort();
  EXPECT_EQ(harness.request(HttpCall{"GET", "/healthz/ready", {}, ""}).status, 200);
  // The registry's files overwritten in place (the database, its write-ahead
  // log and the log's index, which the open connection maps): every read of
  // it fails from now on.
  for (const char* file : {"registry.db", "registry.db-wal", "registry.db-shm"}) {
    const std::filesystem::path path = harness.dataDir() / file;
    const std::uintmax_t size = std::filesystem::exists(path) ? std::filesystem::file_size(path) : 0;
    std::fstream(path, std::ios::in | std::ios::out | std::ios::binary)
        << std::string(std::max<std::uintmax_t>(size, 8192), 'x');
  }
  EXPECT_TRUE(waitForSample(port, "codepayload_registry_refresh_failures_total", 1));
  const HttpResult ready = harness.request(HttpCall{"GET", "/healthz/ready", {}, ""});
  EXPECT_EQ(ready.status, 200);
  const std::string prefix = R"({"status":"degraded","release":"2026-01-27","checks":{"rules":"ok",)"
                             R"("registry":"the latest check could not read the registry (last read )";
  EXPECT_TRUE(ready.body.starts_with(prefix)) << ready.body;
  EXPECT_TRUE(ready.body.ends_with(R"J( s ago)"}})J")) << ready.body;
  EXPECT_EQ(harness.request(HttpCall{"GET", "/healthz/live", {}, ""}).status, 200);
  EXPECT_EQ(harness.request(HttpCall{"GET", "/healthz", {}, ""}).status, 200);
}

TEST(MetricsListener, IsOffUnlessConfigured) {
  ServiceHarness harness;
  EXPECT_FALSE(harness.service().metricsPort().has_value());
  for (const std::string& line : harness.serviceLog()) {
    EXPECT_EQ(line.find("metrics on"), std::string::npos) << line;
  }
}

TEST(MetricsListener, ItsAddressIsInTheStartLine) {
  ServiceHarness harness([](ServerConfig& config) { config.metricsListen = ListenAddress{"127.0.0.1", 0}; });
  const std::string expected =
      ", metrics on http://127.0.0.1:" + std::to_string(*harness.service().metricsPort()) + "/metrics (rules release";
  bool found = false;
  for (const std::string& line : harness.serviceLog()) found = found || line.find(expected) != std::string::npos;
  EXPECT_TRUE(found) << expected;
}

}  // namespace
}  // namespace codepayload::server::testing
