// Three codepayload-server processes on one scratch PostgreSQL registry,
// behind HAProxy configured with the shipped deploy/haproxy/codepayload.cfg,
// all on 127.0.0.1: the deployment docs/scaling.md describes, run for real.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
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
      instances_[index] = std::make_unique<ServerProcess>(dataDir, settings_);
      instanceCertificates += codepayload::testing::readFile(dataDir / "dev-tls-cert.pem");
    }
    codepayload::testing::writeFile(folder_.path() / "instances-ca.pem", instanceCertificates);
    startHaproxy();
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

  // codepayload-admin on the shared registry; its standard output.
  std::string admin(const std::vector<std::string>& arguments) {
    std::map<std::string, std::string> environment = settings_;
    environment["CODEPAYLOAD_DATA_DIR"] = (folder_.path() / "admin-data").string();
    ChildProcess process(CODEPAYLOAD_ADMIN_EXECUTABLE, arguments, environment,
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
  LoadGenerator load(
      proxy_, {requestBytes(codesCall(token, kOneItem))},
      [](std::size_t, const HttpResult& response) {
        return response.status == 200 && response.body == kOneItemResponse ? 0 : kUnexpected;
      },
      1, 8);
  ASSERT_TRUE(load.waitForCompleted(2000, std::chrono::seconds(30)));
  instances_[1]->process().killNine();
  const std::uint64_t atKill = load.completed();
  ASSERT_TRUE(load.waitForCompleted(atKill + 4000, std::chrono::seconds(30)));
  const LoadReport report = load.stop();
  EXPECT_EQ(report.failed, 0u) << report.firstFailure;
  EXPECT_GE(report.served, 6000u);
  std::cout << "[ scale ] kill -9 of one instance of 3 behind HAProxy: " << report.served << " /codes served, "
            << report.failed << " failed, " << report.requestsPerSecond() << " requests/s\n";
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
  LoadGenerator load(
      proxy_, {requestBytes(codesCall(oldToken, kOneItem))},
      [](std::size_t, const HttpResult& response) {
        return response.status == 200 && response.body == kOneItemResponse ? 0 : kUnexpected;
      },
      1, 4);
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

}  // namespace
}  // namespace codepayload::robustness
