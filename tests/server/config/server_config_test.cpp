#include "server/config/server_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "app/paths.h"

namespace codepayload::server {
namespace {

EnvironmentLookup environmentOf(std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](std::string_view name) -> std::optional<std::string> {
    const auto it = variables.find(std::string(name));
    if (it == variables.end()) return std::nullopt;
    return it->second;
  };
}

class ServerConfigFile : public testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 ("codepayload-config-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  std::filesystem::path write(const std::string& content) {
    const auto file = directory_ / "codepayload.properties";
    std::ofstream(file) << content;
    return file;
  }

  std::string errorOf(const std::string& content, std::map<std::string, std::string> variables = {}) {
    try {
      loadServerConfig(write(content), environmentOf(std::move(variables)));
    } catch (const ServerConfigError& error) {
      return error.what();
    }
    return "<no error>";
  }

  std::filesystem::path directory_;
};

TEST_F(ServerConfigFile, DefaultsWithoutFileOrEnvironment) {
  const ServerConfig config = loadServerConfig(std::nullopt, environmentOf({}));
  EXPECT_EQ(config, ServerConfig{});
  EXPECT_EQ(config.dataDir, "./data");
  EXPECT_EQ(config.listen, (ListenAddress{"127.0.0.1", 8443}));
  EXPECT_FALSE(config.plainListen);
  EXPECT_EQ(config.tokenTtlSeconds, 3600);
  EXPECT_EQ(config.maxBodyBytes, 33554432u);
  EXPECT_EQ(config.maxItems, 100000u);
  EXPECT_EQ(config.largeBodyBytes, 1048576u);
  EXPECT_EQ(config.maxLargeRequestsPerClient, 2);
}

TEST_F(ServerConfigFile, ShippedFileDocumentsEveryKeyAndLoads) {
  const auto shipped = app::defaultConfigDir() / "codepayload.properties";
  const ServerConfig config = loadServerConfig(shipped, environmentOf({}));
  EXPECT_EQ(config, ServerConfig{});
  std::ifstream in(shipped);
  std::ostringstream content;
  content << in.rdbuf();
  const std::string text = content.str();
  for (const auto& setting : app::settingTable()) {
    EXPECT_NE(text.find("\n" + std::string(setting.key) + " ="), std::string::npos) << setting.key;
    EXPECT_NE(text.find(std::string(setting.environmentVariable)), std::string::npos) << setting.environmentVariable;
  }
}

// The systemd unit's MemoryMax covers the most the default settings let the
// server hold (docs/robustness.md: 64 MiB to run, each large request 8 times
// the body limit + 24 MiB, every other worker 8 times the large-body
// threshold + 24 MiB, every connection one buffered answer + 160 KiB), by at
// most 10 %: when a default changes, the unit follows.
TEST_F(ServerConfigFile, TheUnitsMemoryMaxCoversTheDefaultSettingsWorstCase) {
  const ServerConfig defaults;
  constexpr std::uint64_t kMiB = 1024 * 1024;
  const auto large = static_cast<std::uint64_t>(defaults.maxLargeRequests);
  const std::uint64_t worstCase =
      64 * kMiB + large * (8 * defaults.maxBodyBytes + 24 * kMiB) +
      (static_cast<std::uint64_t>(defaults.maxThreads) - large) * (8 * defaults.largeBodyBytes + 24 * kMiB) +
      static_cast<std::uint64_t>(defaults.maxConnections) * (defaults.largeBodyBytes + 160 * 1024);
  EXPECT_EQ(worstCase / kMiB, 4288u);
  std::ifstream unit(app::defaultConfigDir().parent_path() / "deploy" / "codepayload.service");
  std::string line;
  std::optional<std::uint64_t> memoryMax;
  while (std::getline(unit, line)) {
    if (line.starts_with("MemoryMax=") && line.ends_with("M")) {
      memoryMax = std::stoull(line.substr(10, line.size() - 11)) * kMiB;
    }
  }
  ASSERT_TRUE(memoryMax.has_value());
  EXPECT_GE(*memoryMax, worstCase);
  EXPECT_LE(*memoryMax, worstCase + worstCase / 10);
}

TEST_F(ServerConfigFile, TheServerFillsAFieldFromEveryKeyOfTheTableOnce) {
  std::vector<std::string_view> table;
  for (const app::SettingRow& row : app::settingTable()) table.push_back(row.key);
  EXPECT_EQ(serverConfigKeys(), table);
}

TEST_F(ServerConfigFile, TheFoldersComeFromTheEnvironmentOrTheSourceTree) {
  const ServerConfig defaults = loadServerConfig(std::nullopt, environmentOf({}));
  EXPECT_EQ(defaults.rulesDir, app::defaultRulesDir());
  EXPECT_EQ(defaults.schemaDir, app::defaultSchemaDir());
  const ServerConfig moved = loadServerConfig(
      std::nullopt, environmentOf({{"CODEPAYLOAD_RULES_DIR", "/opt/rules"}, {"CODEPAYLOAD_DB_DIR", "/opt/db"}}));
  EXPECT_EQ(moved.rulesDir, "/opt/rules");
  EXPECT_EQ(moved.schemaDir, "/opt/db");
}

TEST_F(ServerConfigFile, FileValuesThenEnvironmentOverrides) {
  const auto file = write(
      "data.dir = /var/lib/codepayload\n"
      "listen = 0.0.0.0:0\n"
      "plain.listen = 127.0.0.1:8080\n"
      "token.ttl = 60\n"
      "http.maxThreads = 32\n");
  const ServerConfig config = loadServerConfig(file, environmentOf({{"CODEPAYLOAD_TOKEN_TTL", "120"},
                                                                    {"CODEPAYLOAD_LISTEN", "[::1]:9443"},
                                                                    {"CODEPAYLOAD_TLS_CERT", "/etc/c.pem"},
                                                                    {"CODEPAYLOAD_TLS_KEY", "/etc/k.pem"}}));
  EXPECT_EQ(config.dataDir, "/var/lib/codepayload");
  EXPECT_EQ(config.listen, (ListenAddress{"::1", 9443}));
  EXPECT_EQ(config.plainListen, (ListenAddress{"127.0.0.1", 8080}));
  EXPECT_EQ(config.tokenTtlSeconds, 120);
  EXPECT_EQ(config.maxThreads, 32);
  EXPECT_EQ(config.tlsCertificateFile, "/etc/c.pem");
  EXPECT_EQ(config.tlsPrivateKeyFile, "/etc/k.pem");
}

TEST_F(ServerConfigFile, BadValuesNameTheirSource) {
  EXPECT_EQ(errorOf("token.ttl = soon\n"),
            "configuration file " + (directory_ / "codepayload.properties").string() +
                ", key token.ttl: must be a whole number between 1 and 86400, got 'soon'");
  EXPECT_EQ(errorOf("", {{"CODEPAYLOAD_LISTEN", "localhost"}}),
            "environment variable CODEPAYLOAD_LISTEN (key listen): must be host:port (or [ipv6]:port) with a port "
            "from 0 to 65535, got 'localhost'");
  EXPECT_EQ(errorOf("", {{"CODEPAYLOAD_LISTEN", "127.0.0.1:70000"}}),
            "environment variable CODEPAYLOAD_LISTEN (key listen): must be host:port (or [ipv6]:port) with a port "
            "from 0 to 65535, got '127.0.0.1:70000'");
  EXPECT_EQ(errorOf("", {{"CODEPAYLOAD_THREADS", "0"}}),
            "environment variable CODEPAYLOAD_THREADS (key http.maxThreads): must be between 1 and 4096, got '0'");
  EXPECT_EQ(errorOf("", {{"CODEPAYLOAD_ISSUER", "localhost"}}),
            "environment variable CODEPAYLOAD_ISSUER (key token.issuer): must be an absolute URI of at most 256 "
            "visible ASCII characters, got 'localhost'");
  EXPECT_EQ(errorOf("token.audience = urn:a b\n"),
            "configuration file " + (directory_ / "codepayload.properties").string() +
                ", key token.audience: must be an absolute URI of at most 256 visible ASCII characters, got 'urn:a b'");
}

TEST_F(ServerConfigFile, LargeRequestLimitsAreReadAndChecked) {
  const ServerConfig config = loadServerConfig(write("limits.largeBodyBytes = 65536\n"),
                                               environmentOf({{"CODEPAYLOAD_MAX_LARGE_REQUESTS_PER_CLIENT", "0"}}));
  EXPECT_EQ(config.largeBodyBytes, 65536u);
  EXPECT_EQ(config.maxLargeRequestsPerClient, 0);
  EXPECT_EQ(errorOf("limits.largeBodyBytes = 1000\n"),
            "configuration file " + (directory_ / "codepayload.properties").string() +
                ", key limits.largeBodyBytes: must be between 1024 and 2147483648, got '1000'");
  EXPECT_EQ(errorOf("", {{"CODEPAYLOAD_MAX_LARGE_REQUESTS_PER_CLIENT", "-1"}}),
            "environment variable CODEPAYLOAD_MAX_LARGE_REQUESTS_PER_CLIENT (key limits.maxLargeRequestsPerClient): "
            "must be between 0 and 4096, got '-1'");
}

TEST_F(ServerConfigFile, DashboardSettings) {
  const ServerConfig defaults = loadServerConfig(std::nullopt, environmentOf({}));
  EXPECT_TRUE(defaults.dashboardEnabled);
  EXPECT_EQ(defaults.dashboardListen, std::nullopt);
  const ServerConfig moved = loadServerConfig(write("dashboard.listen = 10.0.0.1:9443\n"),
                                              environmentOf({{"CODEPAYLOAD_DASHBOARD_ENABLED", "false"}}));
  EXPECT_FALSE(moved.dashboardEnabled);
  EXPECT_EQ(moved.dashboardListen, (ListenAddress{"10.0.0.1", 9443}));
  EXPECT_EQ(errorOf("dashboard.enabled = yes\n"), "configuration file " +
                                                      (directory_ / "codepayload.properties").string() +
                                                      ", key dashboard.enabled: must be true or false, got 'yes'");
  EXPECT_EQ(errorOf("listen = 127.0.0.1:8443\ndashboard.listen = 127.0.0.1:8443\n"),
            "dashboard.listen must differ from listen, plain.listen and metrics.listen");
}

TEST_F(ServerConfigFile, UnknownKeyIsRefused) {
  EXPECT_EQ(errorOf("token.tll = 60\n"),
            "configuration file " + (directory_ / "codepayload.properties").string() + ": unknown key 'token.tll'");
}

TEST_F(ServerConfigFile, DefaultMinimumFollowsALowerMaximum) {
  const ServerConfig config = loadServerConfig(std::nullopt, environmentOf({{"CODEPAYLOAD_THREADS", "4"}}));
  EXPECT_EQ(config.maxThreads, 4);
  EXPECT_EQ(config.minThreads, 4);
}

TEST_F(ServerConfigFile, PerAddressLimitIsHalfTheWorkersUnlessSet) {
  EXPECT_EQ(loadServerConfig(std::nullopt, environmentOf({})).maxConnectionsPerAddress, 32);
  EXPECT_EQ(loadServerConfig(std::nullopt, environmentOf({{"CODEPAYLOAD_THREADS", "10"}})).maxConnectionsPerAddress, 5);
  EXPECT_EQ(loadServerConfig(std::nullopt, environmentOf({{"CODEPAYLOAD_THREADS", "1"}})).maxConnectionsPerAddress, 1);
  const ServerConfig unlimited =
      loadServerConfig(write("http.maxConnectionsPerAddress = 0\n"), environmentOf({{"CODEPAYLOAD_THREADS", "10"}}));
  EXPECT_EQ(unlimited.maxConnectionsPerAddress, 0);
  EXPECT_EQ(loadServerConfig(std::nullopt, environmentOf({{"CODEPAYLOAD_MAX_CONNECTIONS_PER_ADDRESS", "200"}}))
                .maxConnectionsPerAddress,
            200);
  EXPECT_EQ(errorOf("http.maxConnectionsPerAddress = -1\n"),
            "configuration file " + (directory_ / "codepayload.properties").string() +
                ", key http.maxConnectionsPerAddress: must be between 0 and 65536, got '-1'");
}

TEST_F(ServerConfigFile, TrustedProxiesAreNoneUnlessListed) {
  EXPECT_TRUE(loadServerConfig(std::nullopt, environmentOf({})).trustedProxies.empty());
  EXPECT_TRUE(loadServerConfig(write("http.trustedProxies =\n"), environmentOf({})).trustedProxies.empty());
  EXPECT_EQ(loadServerConfig(write("http.trustedProxies = 10.0.0.0/8, 192.168.1.7\n"), environmentOf({}))
                .trustedProxies.text(),
            (std::vector<std::string>{"10.0.0.0/8", "192.168.1.7/32"}));
  EXPECT_EQ(loadServerConfig(std::nullopt, environmentOf({{"CODEPAYLOAD_TRUSTED_PROXIES", "fd00::/8"}}))
                .trustedProxies.text(),
            (std::vector<std::string>{"fd00::/8"}));
  EXPECT_EQ(errorOf("http.trustedProxies = proxy.example\n"),
            "configuration file " + (directory_ / "codepayload.properties").string() +
                ", key http.trustedProxies: must be a comma-separated list of CIDR blocks: not an IP address or CIDR "
                "block: proxy.example");
}

TEST_F(ServerConfigFile, ForwardedHeaderIsXForwardedForUnlessSetToForwarded) {
  EXPECT_EQ(loadServerConfig(std::nullopt, environmentOf({})).forwardedHeader, ForwardedHeader::XForwardedFor);
  EXPECT_EQ(loadServerConfig(write("http.forwardedHeader = Forwarded\n"), environmentOf({})).forwardedHeader,
            ForwardedHeader::Forwarded);
  EXPECT_EQ(loadServerConfig(write("http.forwardedHeader = forwarded\n"), environmentOf({})).forwardedHeader,
            ForwardedHeader::Forwarded);
  EXPECT_EQ(loadServerConfig(write("http.forwardedHeader = Forwarded\n"),
                             environmentOf({{"CODEPAYLOAD_FORWARDED_HEADER", "x-forwarded-for"}}))
                .forwardedHeader,
            ForwardedHeader::XForwardedFor);
  EXPECT_EQ(errorOf("http.forwardedHeader = X-Real-IP\n"),
            "configuration file " + (directory_ / "codepayload.properties").string() +
                ", key http.forwardedHeader: must be X-Forwarded-For or Forwarded (the one header the trusted proxies "
                "write the client's address into), got 'X-Real-IP'");
  EXPECT_EQ(errorOf("", {{"CODEPAYLOAD_FORWARDED_HEADER", "Forwarded, X-Forwarded-For"}}),
            "environment variable CODEPAYLOAD_FORWARDED_HEADER (key http.forwardedHeader): must be X-Forwarded-For or "
            "Forwarded (the one header the trusted proxies write the client's address into), got 'Forwarded, "
            "X-Forwarded-For'");
  EXPECT_EQ(errorOf("http.forwardedHeader =\n"),
            "configuration file " + (directory_ / "codepayload.properties").string() +
                ", key http.forwardedHeader: must be X-Forwarded-For or Forwarded (the one header the trusted proxies "
                "write the client's address into), got ''");
}

TEST_F(ServerConfigFile, RequestTimeoutMustOutlastTheKeepAliveWait) {
  EXPECT_EQ(loadServerConfig(std::nullopt, environmentOf({})).requestTimeout, std::chrono::seconds(30));
  EXPECT_EQ(loadServerConfig(std::nullopt, environmentOf({{"CODEPAYLOAD_REQUEST_TIMEOUT", "6"}})).requestTimeout,
            std::chrono::seconds(6));
  EXPECT_EQ(errorOf("http.requestTimeout = 5\n"),
            "http.requestTimeout (5) must be longer than http.keepAliveTimeout (5): the request deadline includes the "
            "wait for the next request on a kept-alive connection");
  EXPECT_EQ(errorOf("", {{"CODEPAYLOAD_REQUEST_TIMEOUT", "0"}}),
            "environment variable CODEPAYLOAD_REQUEST_TIMEOUT (key http.requestTimeout): must be between 1 and 3600, "
            "got '0'");
}

TEST_F(ServerConfigFile, FirstBytesAndTlsHandshakeTimeouts) {
  const ServerConfig defaults = loadServerConfig(std::nullopt, environmentOf({}));
  EXPECT_EQ(defaults.firstBytesTimeout, std::chrono::seconds(3));
  EXPECT_EQ(defaults.tlsHandshakeTimeout, std::chrono::seconds(3));
  EXPECT_EQ(defaults.listenBacklog, 4096);
  const ServerConfig set = loadServerConfig(write("http.firstBytesTimeout = 0\nhttp.tlsHandshakeTimeout = 7\n"),
                                            environmentOf({{"CODEPAYLOAD_TLS_HANDSHAKE_TIMEOUT", "2"}}));
  EXPECT_EQ(set.firstBytesTimeout, std::chrono::seconds(0));
  EXPECT_EQ(set.tlsHandshakeTimeout, std::chrono::seconds(2));
  EXPECT_EQ(errorOf("", {{"CODEPAYLOAD_FIRST_BYTES_TIMEOUT", "61"}}),
            "environment variable CODEPAYLOAD_FIRST_BYTES_TIMEOUT (key http.firstBytesTimeout): must be between 0 and "
            "60, got '61'");
  EXPECT_EQ(errorOf("http.tlsHandshakeTimeout = 0\n"),
            "configuration file " + (directory_ / "codepayload.properties").string() +
                ", key http.tlsHandshakeTimeout: must be between 1 and 300, got '0'");
}

TEST_F(ServerConfigFile, InconsistentSettingsAreRefused) {
  EXPECT_EQ(errorOf("http.minThreads = 10\nhttp.maxThreads = 4\n"),
            "http.minThreads (10) must not exceed http.maxThreads (4)");
  EXPECT_EQ(errorOf("", {{"CODEPAYLOAD_TLS_CERT", "/etc/c.pem"}}),
            "tls.certificate (CODEPAYLOAD_TLS_CERT) and tls.privateKey (CODEPAYLOAD_TLS_KEY) must be set together, "
            "or both left empty for a generated development certificate");
}

TEST_F(ServerConfigFile, MissingFileIsRefused) {
  try {
    loadServerConfig(directory_ / "absent.properties", environmentOf({}));
    FAIL() << "no error";
  } catch (const ServerConfigError& error) {
    EXPECT_EQ(std::string(error.what()),
              "configuration file " + (directory_ / "absent.properties").string() + " does not exist");
  }
}

TEST(ListenAddressParsing, Shapes) {
  EXPECT_EQ(parseListenAddress("127.0.0.1:0"), (ListenAddress{"127.0.0.1", 0}));
  EXPECT_EQ(parseListenAddress("[::]:8443"), (ListenAddress{"::", 8443}));
  EXPECT_THROW(parseListenAddress("::1:8443"), ServerConfigError);
  EXPECT_THROW(parseListenAddress(":8443"), ServerConfigError);
  EXPECT_THROW(parseListenAddress("host:"), ServerConfigError);
  EXPECT_THROW(parseListenAddress("host:-1"), ServerConfigError);
}

}  // namespace
}  // namespace codepayload::server
