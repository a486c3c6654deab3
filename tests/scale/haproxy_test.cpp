// Three codepayload-server processes on one scratch PostgreSQL registry,
// behind HAProxy configured with the shipped deploy/haproxy/codepayload.cfg,
// all on 127.0.0.1: the deployment docs/scaling.md describes, run for real.
#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "auth/base64.h"
#include "tests/robustness/api_client.h"
#include "tests/robustness/child_process.h"
#include "tests/robustness/load_generator.h"
#include "tests/robustness/requests.h"
#include "tests/robustness/server_process.h"
#include "tests/robustness/tls_connection.h"
#include "tests/server/support/admin_process.h"
#include "tests/support/scratch_postgresql.h"
#include "tests/tools/test_files.h"

namespace codepayload::robustness {
namespace {

using server::testing::jsonMember;

constexpr std::size_t kInstances = 3;

// A free TCP port on 127.0.0.1 (bound once, then released for HAProxy).
std::uint16_t freePort() {
  Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
  const std::uint16_t port = socket.address().port();
  socket.close();
  return port;
}

// GET /metrics on an instance's plain metrics listener; the body.
std::string scrapeMetrics(std::uint16_t port) {
  Poco::Net::HTTPClientSession session("127.0.0.1", port);
  Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_GET, "/metrics", Poco::Net::HTTPMessage::HTTP_1_1);
  session.sendRequest(request);
  Poco::Net::HTTPResponse response;
  std::ostringstream body;
  Poco::StreamCopier::copyStream(session.receiveResponse(response), body);
  return body.str();
}

// How many requests to `route` an instance answered 200, from its metrics.
int answered(std::uint16_t metricsPort, const std::string& route) {
  const std::string text = scrapeMetrics(metricsPort);
  const std::string labels = "codepayload_http_requests_total{route=\"" + route + "\",status=\"200\"} ";
  const std::size_t at = text.find(labels);
  return at == std::string::npos ? 0 : std::stoi(text.substr(at + labels.size()));
}

// One-item /codes on `connections` connections through `endpoint`, each
// answer required to be exactly kOneItemResponse.
LoadGenerator oneItemLoad(const ServiceEndpoint& endpoint, const std::string& token, int connections) {
  return LoadGenerator(
      endpoint, {requestBytes(codesCall(token, kOneItem))},
      [](std::size_t, const HttpResult& response) {
        return response.status == 200 && response.body == kOneItemResponse ? 0 : kUnexpected;
      },
      1, connections);
}

class BehindHaproxyTest : public ::testing::Test {
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
    ASSERT_NE(cluster_, nullptr) << "cannot start a scratch PostgreSQL: " << startError_;
    static int databases = 0;
    database_ = "behind_haproxy_" + std::to_string(++databases);
    cluster_->createDatabase(database_);
    const std::filesystem::path keyFile = folder_.path() / "key-encryption-key";
    codepayload::testing::writeFile(keyFile, std::string(32, 'k'));
    ::chmod(keyFile.c_str(), 0600);
    settings_ = {{"CODEPAYLOAD_REGISTRY_URL", "postgresql://" + cluster_->user() + ":" + cluster_->password() +
                                                  "@127.0.0.1:" + std::to_string(cluster_->port()) + "/" + database_},
                 {"CODEPAYLOAD_KEY_ENCRYPTION_KEY_FILE", keyFile.string()}};
    std::string instanceCertificates;
    for (std::size_t index = 0; index < kInstances; ++index) {
      const std::filesystem::path dataDir = folder_.path() / ("instance-" + std::to_string(index + 1)) / "data";
      std::filesystem::create_directories(dataDir);
      dataDirs_[index] = dataDir;
      std::map<std::string, std::string> instanceSettings = settings_;
      metricsPorts_[index] = freePort();
      instanceSettings["CODEPAYLOAD_METRICS_LISTEN"] = "127.0.0.1:" + std::to_string(metricsPorts_[index]);
      instances_[index] = std::make_unique<ServerProcess>(dataDir, instanceSettings);
      instanceCertificates += codepayload::testing::readFile(dataDir / "dev-tls-cert.pem");
    }
    codepayload::testing::writeFile(folder_.path() / "instances-ca.pem", instanceCertificates);
    startHaproxy();
    waitUntilHaproxyUsesEveryInstance();
  }

  void TearDown() override {
    haproxy_.reset();
    for (std::unique_ptr<ServerProcess>& instance : instances_) instance.reset();
  }

  // HAProxy in the foreground (-db), with the shipped configuration and its
  // environment; returns once it answers through to an instance.
  void startHaproxy() {
    const std::filesystem::path key = folder_.path() / "haproxy-key.pem";
    const std::filesystem::path certificate = folder_.path() / "haproxy-cert.pem";
    const std::string command = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout '" +
                                key.string() + "' -out '" + certificate.string() +
                                "' -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 2>/dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    codepayload::testing::writeFile(folder_.path() / "haproxy.pem",
                                    codepayload::testing::readFile(certificate) + codepayload::testing::readFile(key));
    const std::uint16_t port = freePort();
    std::map<std::string, std::string> environment{
        {"CODEPAYLOAD_HAPROXY_BIND", "127.0.0.1:" + std::to_string(port)},
        {"CODEPAYLOAD_HAPROXY_CERT", (folder_.path() / "haproxy.pem").string()},
        {"CODEPAYLOAD_INSTANCE_CA", (folder_.path() / "instances-ca.pem").string()}};
    for (std::size_t index = 0; index < kInstances; ++index) {
      environment["CODEPAYLOAD_INSTANCE_" + std::to_string(index + 1)] =
          "127.0.0.1:" + std::to_string(instances_[index]->endpoint().port);
    }
    haproxy_ = std::make_unique<ChildProcess>(
        "/usr/sbin/haproxy",
        std::vector<std::string>{"-db", "-f",
                                 std::string(CODEPAYLOAD_TEST_SOURCE_DIR) + "/deploy/haproxy/codepayload.cfg"},
        environment, folder_.path() / "haproxy");
    proxy_ = ServiceEndpoint{port, trustingContext(certificate.string())};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (std::chrono::steady_clock::now() < deadline) {
      ASSERT_TRUE(haproxy_->running()) << haproxy_->err();
      try {
        if (exchange(proxy_, HttpCall{"GET", "/healthz/ready", {}, ""}).status == 200) return;
      } catch (const Poco::Exception&) {
        // Not listening yet.
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL() << "HAProxy did not answer within 15 s: " << haproxy_->err();
  }

  // Every instance in HAProxy's rotation: its health checks (TLS verified
  // against the instances' certificates) answered twice ("rise 2").
  void waitUntilHaproxyUsesEveryInstance() {
    for (std::size_t index = 0; index < kInstances; ++index) {
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
      while (answered(metricsPorts_[index], "/healthz/ready") < 2) {
        ASSERT_LT(std::chrono::steady_clock::now(), deadline)
            << "HAProxy's checks never reached instance " << index + 1 << ": " << haproxy_->err();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
  }

  // codepayload-admin on the shared registry; its standard output.
  std::string admin(const std::vector<std::string>& arguments) { return tool(CODEPAYLOAD_ADMIN_EXECUTABLE, arguments); }

  // `executable` run to its end with the shared registry's settings plus
  // `extra`; its standard output.
  std::string tool(const std::filesystem::path& executable, const std::vector<std::string>& arguments,
                   const std::map<std::string, std::string>& extra = {}) {
    std::map<std::string, std::string> environment = settings_;
    environment.insert(extra.begin(), extra.end());
    environment["CODEPAYLOAD_DATA_DIR"] = (folder_.path() / "admin-data").string();
    ChildProcess process(executable, arguments, environment,
                         folder_.path() / ("admin-" + std::to_string(++adminRuns_)));
    const ChildExit exit = process.wait();
    EXPECT_EQ(exit, (ChildExit{false, 0})) << process.err();
    return process.out();
  }

  CreatedApiClient createClient() {
    const std::string organization = jsonMember(admin({"org", "create", "--name", "Acme", "--plan", "starter"}), "id");
    const std::string created =
        admin({"client", "create", "--org", organization, "--name", "line 4", "--scope", "write:codes"});
    return CreatedApiClient{organization, jsonMember(created, "clientId"), jsonMember(created, "clientSecret")};
  }

  static std::unique_ptr<codepayload::testing::ScratchPostgresql> cluster_;
  static std::string startError_;
  codepayload::testing::TempDir folder_;
  std::string database_;
  std::map<std::string, std::string> settings_;
  std::array<std::filesystem::path, kInstances> dataDirs_;
  std::array<std::unique_ptr<ServerProcess>, kInstances> instances_;
  std::array<std::uint16_t, kInstances> metricsPorts_{};
  std::unique_ptr<ChildProcess> haproxy_;
  ServiceEndpoint proxy_;
  int adminRuns_ = 0;
};

std::unique_ptr<codepayload::testing::ScratchPostgresql> BehindHaproxyTest::cluster_;
std::string BehindHaproxyTest::startError_;

// kill -9 of one instance while /codes runs through HAProxy: the requests in
// flight on it are sent again to another (retry-on), so none fails.
TEST_F(BehindHaproxyTest, AnInstanceKilledDuringLoadFailsNoRequest) {
  const CreatedApiClient client = createClient();
  const std::string token = acceptedAccessToken(proxy_, client);
  LoadGenerator load = oneItemLoad(proxy_, token, 8);
  ASSERT_TRUE(load.waitForCompleted(2000, std::chrono::seconds(30)));
  // HAProxy spreads the load: the instance killed is serving part of it.
  EXPECT_GT(answered(metricsPorts_[1], "/codes"), 200);
  instances_[1]->process().killNine();
  const std::uint64_t atKill = load.completed();
  ASSERT_TRUE(load.waitForCompleted(atKill + 4000, std::chrono::seconds(30)));
  const LoadReport report = load.stop();
  EXPECT_EQ(report.failed, 0u) << report.firstFailure;
  EXPECT_GE(report.served, 6000u);
  std::cout << "[ scale ] kill -9 of one instance of 3 behind HAProxy: " << report.served << " /codes served, "
            << report.failed << " failed, " << report.requestsPerSecond() << " requests/s\n";
}

// A dashboard call as the dashboard's own page sends it, to one instance.
HttpResult dashboardCall(const ServiceEndpoint& instance, const std::string& method, const std::string& target,
                         const std::string& body, const std::string& sessionId, const std::string& csrfToken) {
  HttpCall call{method, target, {{"Sec-Fetch-Site", "same-origin"}, {"Origin", "https://127.0.0.1"}}, body};
  if (!body.empty()) call.headers.emplace_back("Content-Type", "application/json");
  if (!sessionId.empty()) call.headers.emplace_back("Cookie", "__Host-codepayload-session=" + sessionId);
  if (!csrfToken.empty()) call.headers.emplace_back("X-CSRF-Token", csrfToken);
  return exchange(instance, call);
}

// Calls `request` every 20 ms until it answers `status`, until `limit` after
// `start`; the time from `start` to that answer, or nullopt.
std::optional<std::chrono::milliseconds> timeUntilStatus(
    int status, std::chrono::milliseconds limit, const std::function<HttpResult()>& request,
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now()) {
  while (true) {
    if (request().status == status) {
      return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    }
    if (std::chrono::steady_clock::now() - start > limit) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// A client created through the first instance's dashboard gets a token from
// the second and uses it on the third; blocked through the first's
// dashboard, it is refused by all three within 2 s. The session signed out
// on the first is over on all three at once.
TEST_F(BehindHaproxyTest, AClientMadeInOneDashboardWorksOnTheOthersAndItsBlockHoldsOnAllWithinTwoSeconds) {
  const std::string organization = jsonMember(admin({"org", "create", "--name", "Acme", "--plan", "starter"}), "id");
  const std::string password = "correct horse battery staple";
  tool("/bin/sh",
       {"-c", "printf '%s\\n' \"$PASSWORD\" | \"$ADMIN\" user create --org " + organization +
                  " --email dev@acme.example --role developer --password-stdin"},
       {{"PASSWORD", password}, {"ADMIN", CODEPAYLOAD_ADMIN_EXECUTABLE}});

  const ServiceEndpoint& first = instances_[0]->endpoint();
  const HttpResult signedIn = dashboardCall(first, "POST", "/dashboard/data/sign-in",
                                            R"({"email":"dev@acme.example","password":")" + password + R"("})", "", "");
  ASSERT_EQ(signedIn.status, 200) << signedIn.body;
  const std::string cookie = signedIn.header("set-cookie");
  const std::string sessionId = cookie.substr(cookie.find('=') + 1, 43);
  const std::string csrfToken =
      jsonMember(dashboardCall(first, "GET", "/dashboard/data/session", "", sessionId, "").body, "csrfToken");
  ASSERT_EQ(csrfToken.empty(), false);
  const HttpResult created = dashboardCall(first, "POST", "/dashboard/data/clients",
                                           R"({"name":"line 7","scopes":["write:codes"]})", sessionId, csrfToken);
  ASSERT_EQ(created.status, 201) << created.body;
  Poco::JSON::Parser parser;
  const std::string clientId =
      parser.parse(created.body).extract<Poco::JSON::Object::Ptr>()->getObject("client")->getValue<std::string>("id");
  const std::string secret = jsonMember(created.body, "secret");

  const ServiceEndpoint& second = instances_[1]->endpoint();
  const ServiceEndpoint& third = instances_[2]->endpoint();
  HttpResult issued;
  ASSERT_TRUE(timeUntilStatus(200, std::chrono::seconds(2), [&] {
    issued = exchange(second, tokenCall(clientId, secret));
    return issued;
  }));
  const std::string token = jsonMember(issued.body, "access_token");
  const HttpResult used = exchange(third, codesCall(token, kOneItem));
  EXPECT_EQ(used.status, 200);
  EXPECT_EQ(used.body, kOneItemResponse);

  const HttpResult blocked =
      dashboardCall(first, "POST", "/dashboard/data/clients/" + clientId + "/block", "", sessionId, csrfToken);
  ASSERT_EQ(blocked.status, 200) << blocked.body;
  const auto blockedAt = std::chrono::steady_clock::now();
  for (const ServiceEndpoint* instance : {&first, &second, &third}) {
    const std::optional<std::chrono::milliseconds> codesRefused = timeUntilStatus(
        401, std::chrono::seconds(2), [&] { return exchange(*instance, codesCall(token, kOneItem)); }, blockedAt);
    ASSERT_TRUE(codesRefused.has_value()) << "a blocked client's token still works after 2 s";
    EXPECT_EQ(exchange(*instance, tokenCall(clientId, secret)).status, 401);
    std::cout << "[ scale ] a block through the first instance's dashboard refused there and on the others after "
              << codesRefused->count() << " ms\n";
  }

  // The dashboard session works on every instance until it signs out on one.
  EXPECT_EQ(dashboardCall(third, "GET", "/dashboard/data/clients", "", sessionId, "").status, 200);
  EXPECT_EQ(dashboardCall(first, "POST", "/dashboard/data/sign-out", "", sessionId, csrfToken).status, 204);
  for (const ServiceEndpoint* instance : {&first, &second, &third}) {
    EXPECT_EQ(dashboardCall(*instance, "GET", "/dashboard/data/session", "", sessionId, "").status, 401);
  }
}

// PostgreSQL stopped and started while /codes runs through HAProxy: /codes
// answers from every instance's memory all along, readiness says "degraded"
// (a 200, so HAProxy keeps the instances), the token endpoint answers
// 500 server_error while the database is away and tokens again once it is
// back, with no instance restarted.
TEST_F(BehindHaproxyTest, PostgresqlStoppedAndStartedDuringLoadFailsNoCodesRequest) {
  const CreatedApiClient client = createClient();
  const std::string token = acceptedAccessToken(proxy_, client);
  LoadGenerator load = oneItemLoad(proxy_, token, 4);
  ASSERT_TRUE(load.waitForCompleted(500, std::chrono::seconds(30)));

  cluster_->stopServer();
  const auto stopped = std::chrono::steady_clock::now();
  // Each instance stops vouching for a secret on its own, after its own registry check fails (a
  // request through HAProxy may reach one that has not yet): each is asked directly.
  for (const std::unique_ptr<ServerProcess>& instance : instances_) {
    const std::optional<std::chrono::milliseconds> refused = timeUntilStatus(500, std::chrono::seconds(5), [&] {
      return exchange(instance->endpoint(), tokenCall(client.clientId, client.secret));
    });
    ASSERT_TRUE(refused.has_value()) << "tokens were still issued 5 s after the database stopped";
    EXPECT_EQ(
        exchange(instance->endpoint(), tokenCall(client.clientId, client.secret)).body,
        R"({"error":"server_error","error_description":"the server could not answer this request; it is safe to retry"})");
  }
  for (const std::unique_ptr<ServerProcess>& instance : instances_) {
    ASSERT_TRUE(timeUntilStatus(200, std::chrono::seconds(5), [&] {
      HttpResult ready = exchange(instance->endpoint(), HttpCall{"GET", "/healthz/ready", {}, ""});
      if (!ready.body.starts_with(R"({"status":"degraded",)")) ready.status = 0;
      return ready;
    }));
  }
  const std::uint64_t whileAway = load.completed();
  ASSERT_TRUE(load.waitForCompleted(whileAway + 2000, std::chrono::seconds(30)));
  // Away for several of the instances' registry checks.
  std::this_thread::sleep_until(stopped + std::chrono::seconds(3));
  const auto awayFor = std::chrono::steady_clock::now() - stopped;

  cluster_->startServer();
  const std::optional<std::chrono::milliseconds> recovered = timeUntilStatus(
      200, std::chrono::seconds(15), [&] { return exchange(proxy_, tokenCall(client.clientId, client.secret)); });
  ASSERT_TRUE(recovered.has_value()) << "no token 15 s after the database started again";
  const LoadReport report = load.stop();
  EXPECT_EQ(report.failed, 0u) << report.firstFailure;
  std::cout << "[ scale ] PostgreSQL away for "
            << std::chrono::duration_cast<std::chrono::milliseconds>(awayFor).count()
            << " ms under load: " << report.served << " /codes served, " << report.failed << " failed; tokens again "
            << recovered->count() << " ms after its start\n";
}

// The kid in an access token's header.
std::string kidOf(const std::string& token) {
  std::string header;
  if (!auth::decodeBase64UrlStrict(token.substr(0, token.find('.')), header)) return "";
  const std::size_t at = header.find(R"("kid":")");
  if (at == std::string::npos) return "";
  return header.substr(at + 7, header.find('"', at + 7) - at - 7);
}

// keys rotate while /codes runs through HAProxy: the new key is published
// everywhere before any instance signs with it, tokens of the old key keep
// working, and from the new key's time every instance issues tokens that
// every instance accepts. No request fails.
TEST_F(BehindHaproxyTest, KeysRotatedUnderLoadFailNoRequest) {
  const CreatedApiClient client = createClient();
  const std::string oldToken = acceptedAccessToken(proxy_, client);
  const std::string oldKid = kidOf(oldToken);
  LoadGenerator load = oneItemLoad(proxy_, oldToken, 4);
  ASSERT_TRUE(load.waitForCompleted(500, std::chrono::seconds(30)));

  const std::string rotated = admin({"keys", "rotate", "--signs-in", "2"});
  const std::string newKid = jsonMember(rotated, "kid");
  ASSERT_EQ(newKid.size(), 43u) << rotated;
  EXPECT_NE(newKid, oldKid);

  // For five seconds, past the new key's time: a fresh token through HAProxy,
  // used on every instance directly.
  std::set<std::string> kidsIssued;
  int tokenFailures = 0;
  std::string firstFailure;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < until) {
    const HttpResult issued = exchange(proxy_, tokenCall(client.clientId, client.secret));
    if (issued.status != 200) {
      if (tokenFailures++ == 0) firstFailure = "token: " + std::to_string(issued.status) + " " + issued.body;
      continue;
    }
    const std::string token = jsonMember(issued.body, "access_token");
    kidsIssued.insert(kidOf(token));
    for (const std::unique_ptr<ServerProcess>& instance : instances_) {
      const HttpResult answered = exchange(instance->endpoint(), codesCall(token, kOneItem));
      if (answered.status != 200 && tokenFailures++ == 0) {
        firstFailure =
            "codes with a token of " + kidOf(token) + ": " + std::to_string(answered.status) + " " + answered.body;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const LoadReport report = load.stop();
  EXPECT_EQ(report.failed, 0u) << report.firstFailure;
  EXPECT_EQ(tokenFailures, 0) << firstFailure;
  EXPECT_EQ(kidsIssued, (std::set<std::string>{oldKid, newKid}));
  // Every instance publishes both until the old key retires.
  for (const std::unique_ptr<ServerProcess>& instance : instances_) {
    const std::string jwks = exchange(instance->endpoint(), HttpCall{"GET", "/.well-known/jwks.json", {}, ""}).body;
    EXPECT_NE(jwks.find(oldKid), std::string::npos) << jwks;
    EXPECT_NE(jwks.find(newKid), std::string::npos) << jwks;
  }
  // And signs with the new one only.
  EXPECT_EQ(kidOf(jsonMember(exchange(proxy_, tokenCall(client.clientId, client.secret)).body, "access_token")),
            newKid);
}

// A release published once (codepayload-import --publish) is served by all
// three instances within 5 s. Each instance answers the AI 717 item (known
// from release 2026-01-27 only) the new way from one moment on and never the
// old way again, and /healthz/ready, /metrics and --version name the release.
TEST_F(BehindHaproxyTest, AReleasePublishedOnceIsServedByEveryInstanceWithinFiveSeconds) {
  const CreatedApiClient client = createClient();
  const std::string token = acceptedAccessToken(proxy_, client);
  std::array<std::unique_ptr<LoadGenerator>, kInstances> loads;
  for (std::size_t index = 0; index < kInstances; ++index) {
    loads[index] = std::make_unique<LoadGenerator>(
        instances_[index]->endpoint(), std::vector<std::string>{requestBytes(codesCall(token, kItemWith717))},
        [](std::size_t, const HttpResult& response) {
          if (response.status != 200) return kUnexpected;
          if (response.body == kItemWith717Accepted) return 0;
          return response.body == kItemWith717Rejected ? 1 : kUnexpected;
        },
        2, 1);
    ASSERT_TRUE(loads[index]->waitForCompleted(50, std::chrono::seconds(30)));
  }

  const std::string published =
      tool(CODEPAYLOAD_IMPORT_EXECUTABLE,
           {"--publish", "--allow-downgrade", "--link-types", codepayload::testing::linkTypesFile().string(),
            codepayload::testing::releaseFile("2025-01-30").string()});
  const auto publishedAt = std::chrono::steady_clock::now();
  ASSERT_EQ(jsonMember(published, "release"), "2025-01-30") << published;

  std::array<std::chrono::milliseconds, kInstances> switchedAfter{};
  std::size_t switched = 0;
  while (switched < kInstances && std::chrono::steady_clock::now() < publishedAt + std::chrono::seconds(5)) {
    for (std::size_t index = 0; index < kInstances; ++index) {
      if (switchedAfter[index].count() > 0) continue;
      if (exchange(instances_[index]->endpoint(), HttpCall{"GET", "/healthz/ready", {}, ""})
              .body.starts_with(R"({"status":"ready","release":"2025-01-30",)")) {
        switchedAfter[index] = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - publishedAt + std::chrono::milliseconds(1));
        ++switched;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(switched, kInstances) << "not every instance serves the published release within 5 s";
  for (std::size_t index = 0; index < kInstances; ++index) {
    ASSERT_TRUE(loads[index]->waitForCompleted(loads[index]->completed() + 20, std::chrono::seconds(10)));
    const LoadReport report = loads[index]->stop();
    EXPECT_EQ(report.failed, 0u) << report.firstFailure;
    // Old answers, then new ones, never the old again.
    EXPECT_EQ(report.kindSequences, (std::vector<std::vector<int>>{{0, 1}})) << "instance " << index + 1;
    EXPECT_NE(scrapeMetrics(metricsPorts_[index]).find("codepayload_rules_release_info{release=\"2025-01-30\"} 1\n"),
              std::string::npos);
    std::map<std::string, std::string> environment = settings_;
    environment["CODEPAYLOAD_DATA_DIR"] = dataDirs_[index].string();
    ChildProcess version(CODEPAYLOAD_SERVER_EXECUTABLE, {"--version"}, environment,
                         folder_.path() / ("version-" + std::to_string(index + 1)));
    EXPECT_EQ(version.wait(), (ChildExit{false, 0}));
    EXPECT_TRUE(
        version.out().ends_with("\nrules release 2025-01-30 (" + (dataDirs_[index] / "rules.db").string() + ")\n"))
        << version.out();
    std::cout << "[ scale ] instance " << index + 1 << " serves the published release " << switchedAfter[index].count()
              << " ms after the publication\n";
  }
}

}  // namespace
}  // namespace codepayload::robustness
