// Forwarding headers spoofed through a usual reverse proxy, against the real
// codepayload-server (D-P12, D-S14). The proxy, on 127.0.0.5
// (http.trustedProxies), writes one header with its client's address,
// 198.51.100.7, and passes the client's own copy of the other header through
// untouched, as nginx and HAProxy do; that copy names a new made-up address
// (203.0.113.N) on every request. The token endpoint's throttle must count
// the address the proxy wrote (20 wrong secrets get 401, the next request
// 429), and the access log must record it, never a made-up one. Once with
// http.forwardedHeader unset (X-Forwarded-For), once set to Forwarded.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "auth/auth_throttle.h"
#include "tests/robustness/api_client.h"
#include "tests/robustness/fault_support.h"
#include "tests/robustness/requests.h"
#include "tests/robustness/server_process.h"

namespace codepayload::robustness {
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

constexpr const char* kProxy = "127.0.0.5";
constexpr const char* kRateLimited =
    R"({"error":"rate_limited","error_description":"too many requests: wait the number of seconds in Retry-After"})";

const auth::ThrottleSettings kDefaults{};

// How the proxy in front forwards: the header it writes and the one a client
// sends that it passes through, each value an address after a prefix ("" for
// X-Forwarded-For, "for=" for Forwarded).
struct Forwarding {
  std::map<std::string, std::string> settings;  // environment beyond the proxy list and the access log
  std::string written;
  std::string writtenPrefix;
  std::string spoofed;
  std::string spoofedPrefix;
};

// The access log's whole lines by request id, once every one of `ids` is in
// it (the server writes the log out every 100 ms); what is there after 10 s.
std::map<std::string, Poco::JSON::Object::Ptr> accessLines(const std::filesystem::path& file,
                                                           const std::set<std::string>& ids) {
  std::map<std::string, Poco::JSON::Object::Ptr> lines;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (true) {
    lines.clear();
    std::ifstream in(file);
    std::ostringstream content;
    content << in.rdbuf();
    const std::string text = content.str();
    std::size_t start = 0;
    for (std::size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
      const auto line = Poco::JSON::Parser().parse(text.substr(start, end - start)).extract<Poco::JSON::Object::Ptr>();
      lines[line->getValue<std::string>("requestId")] = line;
      start = end + 1;
    }
    bool complete = true;
    for (const std::string& id : ids) complete = complete && lines.contains(id);
    if (complete || std::chrono::steady_clock::now() > deadline) return lines;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void expectTheWrittenAddressThrottledAndLogged(const Forwarding& forwarding) {
  TemporaryFolder folder("forwarded-spoofing");
  const std::filesystem::path dataDir = folder.path() / "data";
  const std::filesystem::path accessLog = folder.path() / "access.log";
  std::map<std::string, std::string> settings{{"CODEPAYLOAD_TRUSTED_PROXIES", kProxy},
                                              {"CODEPAYLOAD_ACCESS_LOG", accessLog.string()}};
  settings.insert(forwarding.settings.begin(), forwarding.settings.end());
  ServerProcess server(dataDir, settings);
  const CreatedApiClient client = createApiClient(dataDir, "forwarded-spoofing");
  // Asked directly (127.0.0.1 is no proxy): the client is known to the server.
  ASSERT_EQ(requestToken(server.endpoint(), client).status, 200);

  // A token request through the proxy with `headers`, tagged `id` (the
  // proxy's X-Request-Id is kept, so the log line can be found).
  const auto throughTheProxy = [&](const std::string& secret, const std::string& id, const Headers& headers) {
    HttpCall call = tokenCall(client.clientId, secret);
    call.headers.insert(call.headers.end(), headers.begin(), headers.end());
    call.headers.emplace_back("X-Request-Id", id);
    return exchange(server.endpoint(), call, kProxy);
  };
  const auto written = [&](const std::string& address) {
    return std::pair{forwarding.written, forwarding.writtenPrefix + address};
  };
  const auto spoofed = [&](const std::string& address) {
    return std::pair{forwarding.spoofed, forwarding.spoofedPrefix + address};
  };

  std::set<std::string> sprayIds;
  int unauthorized = 0;
  HttpResult stopped;
  for (std::uint32_t attempt = 0; attempt < 2 * kDefaults.failuresPerAddress; ++attempt) {
    const std::string id = "spray-" + std::to_string(attempt);
    sprayIds.insert(id);
    // The client's own header first, the proxy's after it, as the proxy
    // sends them.
    const HttpResult answer =
        throughTheProxy("guess-" + std::to_string(attempt), id,
                        {spoofed("203.0.113." + std::to_string(attempt + 1)), written("198.51.100.7")});
    if (answer.status != 401) {
      stopped = answer;
      break;
    }
    ++unauthorized;
  }
  EXPECT_EQ(unauthorized, static_cast<int>(kDefaults.failuresPerAddress));
  EXPECT_EQ(stopped.status, 429);
  EXPECT_EQ(stopped.body, kRateLimited);
  // The right secret for that address is refused too; for another address
  // the proxy writes it works; and a request naming 198.51.100.7 only in the
  // client's own header is the proxy's, which is not throttled.
  EXPECT_EQ(throughTheProxy(client.secret, "same-address", {spoofed("203.0.113.200"), written("198.51.100.7")}).status,
            429);
  EXPECT_EQ(throughTheProxy(client.secret, "other-address", {written("198.51.100.8")}).status, 200);
  EXPECT_EQ(throughTheProxy(client.secret, "only-spoofed", {spoofed("198.51.100.7")}).status, 200);

  std::set<std::string> ids = sprayIds;
  ids.insert({"same-address", "other-address", "only-spoofed"});
  const std::map<std::string, Poco::JSON::Object::Ptr> lines = accessLines(accessLog, ids);
  for (const std::string& id : ids) {
    SCOPED_TRACE(id);
    ASSERT_TRUE(lines.contains(id));
    const std::string expected = id == "other-address"  ? "198.51.100.8"
                                 : id == "only-spoofed" ? kProxy
                                                        : "198.51.100.7";
    EXPECT_EQ(lines.at(id)->getValue<std::string>("client"), expected);
  }
  EXPECT_EQ(lines.at("spray-0")->getValue<int>("status"), 401);
  EXPECT_EQ(lines.at("spray-" + std::to_string(kDefaults.failuresPerAddress))->getValue<int>("status"), 429);
  for (const auto& [id, line] : lines) {
    EXPECT_EQ(line->getValue<std::string>("client").find("203.0.113."), std::string::npos) << id;
  }
}

TEST(ForwardedSpoofing, AClientsForwardedIsIgnoredBehindAProxyWritingXForwardedFor) {
  // http.forwardedHeader unset: X-Forwarded-For.
  expectTheWrittenAddressThrottledAndLogged(Forwarding{{}, "X-Forwarded-For", "", "Forwarded", "for="});
}

TEST(ForwardedSpoofing, AClientsXForwardedForIsIgnoredBehindAProxyWritingForwarded) {
  expectTheWrittenAddressThrottledAndLogged(
      Forwarding{{{"CODEPAYLOAD_FORWARDED_HEADER", "Forwarded"}}, "Forwarded", "for=", "X-Forwarded-For", ""});
}

}  // namespace
}  // namespace codepayload::robustness
