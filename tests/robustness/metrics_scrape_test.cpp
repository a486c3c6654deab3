// The metrics of a real codepayload-server process (metrics.listen on port 0)
// after real requests: `promtool check metrics` (Debian's prometheus package)
// accepts the scrape, the counters moved by exactly the requests sent, and
// every metric deploy/grafana-dashboard.json queries is in the scrape, in
// expressions `promtool check rules` parses.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/robustness/api_client.h"
#include "tests/robustness/fault_support.h"
#include "tests/robustness/requests.h"
#include "tests/robustness/server_process.h"
#include "tests/server/support/metrics_scrape.h"

namespace codepayload::robustness {
namespace {

using server::testing::metricSamples;
using server::testing::sampleValue;
using server::testing::scrapeAfterRequests;
using server::testing::scrapeMetrics;
using server::testing::scrapeWhenSettled;

constexpr const char* kPromtool = "/usr/bin/promtool";

// A GTIN with a wrong check digit: one Validation.Invalid.primaryKey error.
constexpr const char* kRejectedItem =
    R"({"codes":[{"primaryKey":{"key":"01","value":"09506000134353"},"ais":[],"extensionParameters":[]}]})";

// The metrics port from the server's start line ("metrics on http://127.0.0.1:<port>/metrics").
std::uint16_t metricsPort(ServerProcess& server) {
  const std::regex startLine(R"(metrics on http://127\.0\.0\.1:([0-9]+)/metrics)");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    std::smatch match;
    const std::string err = server.process().err();
    if (std::regex_search(err, match, startLine)) return static_cast<std::uint16_t>(std::stoi(match[1]));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ADD_FAILURE() << "no metrics address in the start line: " << server.process().err();
  return 0;
}

struct ToolRun {
  int exitCode = -1;
  std::string output;
};

// `promtool <arguments> < input`, stdout and stderr together.
ToolRun promtool(const std::string& arguments, const std::filesystem::path& input, const std::filesystem::path& work) {
  const std::filesystem::path output = work / "promtool.out";
  const std::string command =
      std::string(kPromtool) + " " + arguments + " < '" + input.string() + "' > '" + output.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  ToolRun run;
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(output);
  std::ostringstream text;
  text << in.rdbuf();
  run.output = text.str();
  return run;
}

double delta(const std::map<std::string, double>& before, const std::map<std::string, double>& after,
             const std::string& sample) {
  return sampleValue(after, sample) - sampleValue(before, sample);
}

// Every "expr" of the dashboard's panels.
std::vector<std::string> dashboardExpressions() {
  std::ifstream file(std::filesystem::path(CODEPAYLOAD_SOURCE_DIR) / "deploy" / "grafana-dashboard.json");
  std::ostringstream text;
  text << file.rdbuf();
  Poco::JSON::Parser parser;
  const auto dashboard = parser.parse(text.str()).extract<Poco::JSON::Object::Ptr>();
  std::vector<std::string> expressions;
  const auto panels = dashboard->getArray("panels");
  for (std::size_t panel = 0; panel < panels->size(); ++panel) {
    const auto targets = panels->getObject(static_cast<unsigned>(panel))->getArray("targets");
    if (!targets) continue;
    for (std::size_t target = 0; target < targets->size(); ++target) {
      expressions.push_back(targets->getObject(static_cast<unsigned>(target))->getValue<std::string>("expr"));
    }
  }
  return expressions;
}

class MetricsScrape : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(kPromtool))
        << kPromtool << " is missing: scripts/install-deps.sh installs Debian's prometheus package";
  }
  TemporaryFolder folder_{"metrics-scrape"};
};

TEST_F(MetricsScrape, PromtoolAcceptsARealScrapeAndTheCountersMoveByExactlyTheRequestsSent) {
  const std::filesystem::path dataDir = folder_.path() / "data";
  ServerProcess server(dataDir, {{"CODEPAYLOAD_METRICS_LISTEN", "127.0.0.1:0"}});
  const std::uint16_t port = metricsPort(server);
  ASSERT_NE(port, 0);
  const CreatedApiClient client = createApiClient(dataDir, "metrics");
  const std::string token = acceptedAccessToken(server.endpoint(), client);

  const auto before = metricSamples(scrapeWhenSettled(port));
  for (int request = 0; request < 3; ++request) {
    const HttpResult accepted = exchange(server.endpoint(), codesCall(token, kOneItem));
    ASSERT_EQ(accepted.body, kOneItemResponse);
  }
  const HttpResult rejected = exchange(server.endpoint(), codesCall(token, kRejectedItem));
  ASSERT_EQ(rejected.status, 200);
  ASSERT_NE(rejected.body.find(R"("code":"Validation.Invalid.primaryKey")"), std::string::npos) << rejected.body;
  EXPECT_EQ(exchange(server.endpoint(), tokenCall(client.clientId, client.secret)).status, 200);
  EXPECT_EQ(exchange(server.endpoint(), tokenCall(client.clientId, "not-the-secret")).status, 401);
  EXPECT_EQ(exchange(server.endpoint(), HttpCall{"GET", "/healthz/ready", {}, ""}).status, 200);
  const std::string text = scrapeAfterRequests(port, before, 7);
  const auto after = metricSamples(text);

  EXPECT_EQ(delta(before, after, "codepayload_codes_accepted_total"), 3);
  EXPECT_EQ(delta(before, after, "codepayload_codes_rejected_total"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_code_errors_total{code="Validation.Invalid.primaryKey"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="/codes",status="200"})"), 4);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_request_duration_seconds_count{route="/codes"})"), 4);
  EXPECT_EQ(delta(before, after, "codepayload_tokens_issued_total"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_token_refusals_total{cause="badCredentials"})"), 1);
  EXPECT_EQ(delta(before, after, R"(codepayload_http_requests_total{route="/healthz/ready",status="200"})"), 1);
  EXPECT_EQ(text.find(client.clientId), std::string::npos);
  EXPECT_EQ(text.find(client.secret), std::string::npos);
  EXPECT_EQ(text.find(token), std::string::npos);

  const std::filesystem::path scrape = folder_.path() / "scrape.txt";
  std::ofstream(scrape) << text;
  const ToolRun check = promtool("check metrics", scrape, folder_.path());
  EXPECT_EQ(check.exitCode, 0) << check.output;
  EXPECT_EQ(check.output, "");

  // The check does fail on a text it should refuse (a counter without _total).
  const std::filesystem::path bad = folder_.path() / "bad.txt";
  std::ofstream(bad) << "# HELP codepayload_x A counter.\n# TYPE codepayload_x counter\ncodepayload_x 1\n";
  EXPECT_NE(promtool("check metrics", bad, folder_.path()).exitCode, 0);
}

TEST_F(MetricsScrape, EveryMetricTheDashboardQueriesIsScrapedAndItsExpressionsParse) {
  const std::filesystem::path dataDir = folder_.path() / "data";
  ServerProcess server(dataDir, {{"CODEPAYLOAD_METRICS_LISTEN", "127.0.0.1:0"}});
  const std::uint16_t port = metricsPort(server);
  ASSERT_NE(port, 0);
  const std::string text = scrapeMetrics(port);
  std::set<std::string> families;
  const std::regex typeLine(R"(# TYPE (codepayload_[a-z_]+) (counter|gauge|histogram))");
  for (auto match = std::sregex_iterator(text.begin(), text.end(), typeLine); match != std::sregex_iterator();
       ++match) {
    const std::string family = (*match)[1];
    families.insert(family);
    if ((*match)[2] == "histogram") {
      for (const char* suffix : {"_bucket", "_sum", "_count"}) families.insert(family + suffix);
    }
  }
  const std::vector<std::string> expressions = dashboardExpressions();
  ASSERT_GE(expressions.size(), 15u);
  const std::regex metricName(R"(codepayload_[a-z_]+)");
  std::set<std::string> queried;
  for (const std::string& expression : expressions) {
    for (auto match = std::sregex_iterator(expression.begin(), expression.end(), metricName);
         match != std::sregex_iterator(); ++match) {
      queried.insert(match->str());
    }
  }
  for (const std::string& name : queried) EXPECT_TRUE(families.contains(name)) << name << " is not in the scrape";
  // Every family is on the dashboard.
  for (const std::string& family : families) {
    if (family.ends_with("_bucket") || family.ends_with("_sum") || family.ends_with("_count")) continue;
    bool shown = false;
    for (const std::string& name : queried) shown = shown || name.starts_with(family);
    EXPECT_TRUE(shown) << family << " is not on the dashboard";
  }

  // The expressions as recording rules (Grafana's variables given values), for promtool to parse.
  Poco::JSON::Array::Ptr rules = new Poco::JSON::Array;
  for (std::size_t index = 0; index < expressions.size(); ++index) {
    std::string expression = std::regex_replace(expressions[index], std::regex(R"(\$__rate_interval)"), "5m");
    expression = std::regex_replace(expression, std::regex(R"(\$job)"), ".*");
    Poco::JSON::Object::Ptr rule = new Poco::JSON::Object;
    rule->set("record", "dashboard:panel_" + std::to_string(index));
    rule->set("expr", expression);
    rules->add(rule);
  }
  Poco::JSON::Object::Ptr group = new Poco::JSON::Object;
  group->set("name", "dashboard");
  group->set("rules", rules);
  Poco::JSON::Array::Ptr groups = new Poco::JSON::Array;
  groups->add(group);
  Poco::JSON::Object file;
  file.set("groups", groups);
  const std::filesystem::path rulesFile = folder_.path() / "dashboard-rules.yml";
  {
    std::ofstream out(rulesFile);
    file.stringify(out);
  }
  const std::filesystem::path empty = folder_.path() / "empty";
  std::ofstream{empty};
  const ToolRun check = promtool("check rules '" + rulesFile.string() + "'", empty, folder_.path());
  EXPECT_EQ(check.exitCode, 0) << check.output;
}

}  // namespace
}  // namespace codepayload::robustness
