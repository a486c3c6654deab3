// Behind a reverse proxy (http.trustedProxies, http.forwardedHeader, D-P12,
// D-S14) and request ids
// (X-Request-Id, D-P10, D-P11): the in-process service, real HTTPS clients
// from 127.0.0.1, trusted as a proxy or not.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "accounts/sql_account_store.h"
#include "app/sqlite_registry.h"
#include "auth/auth_service.h"
#include "server/http/request_id.h"
#include "tests/server/support/service_harness.h"

namespace codepayload::server::testing {
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

// The failed authentications the token endpoint's address throttle lets
// through from one address in its window; the next request gets 429.
constexpr int kFailuresPerAddress = 20;

std::function<void(ServerConfig&)> trusting(const std::string& proxies,
                                            ForwardedHeader header = ForwardedHeader::XForwardedFor) {
  return [proxies, header](ServerConfig& config) {
    config.trustedProxies = TrustedProxies::parse(proxies);
    config.forwardedHeader = header;
  };
}

HttpResult tokenRequest(ServiceHarness& harness, const ApiClient& client, const std::string& secret, Headers extra) {
  Headers headers{{"Authorization", basicAuthorization(client.clientId, secret)},
                  {"Content-Type", "application/x-www-form-urlencoded"}};
  for (auto& header : extra) headers.push_back(std::move(header));
  return harness.request(HttpCall{"POST", "/oauth/token", headers, "grant_type=client_credentials"});
}

// The access-log line of the request with id `requestId` (waits for the
// writer), or null.
Poco::JSON::Object::Ptr accessLine(ServiceHarness& harness, const std::string& requestId) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (const std::string& line : harness.accessLogLines()) {
      const auto parsed = Poco::JSON::Parser().parse(line).extract<Poco::JSON::Object::Ptr>();
      if (parsed->has("requestId") && !parsed->isNull("requestId") &&
          parsed->getValue<std::string>("requestId") == requestId) {
        return parsed;
      }
    }
  }
  return nullptr;
}

bool isGeneratedId(const std::string& id) {
  return id.size() == 32 && id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

TEST(TrustedProxy, TheTokenThrottleCountsTheForwardedClientSoOneBruteForcerLocksOutOnlyItself) {
  ServiceHarness harness(trusting("127.0.0.1"));
  const ApiClient victim = harness.createClient({"write:codes"});
  for (int attempt = 0; attempt < kFailuresPerAddress; ++attempt) {
    ASSERT_EQ(tokenRequest(harness, victim, "guess", {{"X-Forwarded-For", "198.51.100.7"}}).status, 401) << attempt;
  }
  EXPECT_EQ(tokenRequest(harness, victim, "guess", {{"X-Forwarded-For", "198.51.100.7"}}).status, 429);
  EXPECT_EQ(tokenRequest(harness, victim, victim.secret, {{"X-Forwarded-For", "198.51.100.7"}}).status, 429);
  // A Forwarded header the client sent (the proxy passes it through) does not
  // get it out either: only X-Forwarded-For is read.
  EXPECT_EQ(tokenRequest(harness, victim, victim.secret,
                         {{"Forwarded", "for=198.51.100.8"}, {"X-Forwarded-For", "198.51.100.7"}})
                .status,
            429);
  // Another client behind the same proxy is not locked out.
  EXPECT_EQ(tokenRequest(harness, victim, victim.secret, {{"X-Forwarded-For", "198.51.100.8"}}).status, 200);
  EXPECT_EQ(tokenRequest(harness, victim, victim.secret, {{"X-Forwarded-For", "2001:db8::8"}}).status, 200);
  // A spoofed left-most entry does not get the brute-forcer out: the proxy's
  // own (right-most) hop names it.
  EXPECT_EQ(tokenRequest(harness, victim, "guess", {{"X-Forwarded-For", "203.0.113.1, 198.51.100.7"}}).status, 429);
  // Nor do many made-up field lines before the proxy's own.
  Headers manyLines(30, {"X-Forwarded-For", "203.0.113.2"});
  manyLines.emplace_back("X-Forwarded-For", "198.51.100.7");
  EXPECT_EQ(tokenRequest(harness, victim, victim.secret, manyLines).status, 429);
  // Without a forwarded address the proxy itself is the client: not locked out either.
  EXPECT_EQ(tokenRequest(harness, victim, victim.secret, {}).status, 200);

  const HttpResult forwarded =
      tokenRequest(harness, victim, victim.secret, {{"X-Forwarded-For", "198.51.100.9"}, {"X-Request-Id", "edge-1"}});
  EXPECT_EQ(forwarded.status, 200);
  EXPECT_EQ(forwarded.header("x-request-id"), "edge-1");
  const auto line = accessLine(harness, "edge-1");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->getValue<std::string>("client"), "198.51.100.9");
  EXPECT_EQ(line->getValue<std::string>("clientId"), victim.clientId);
}

// Wrong secrets through a proxy that writes header `written` with `value`
// (naming 198.51.100.7), each request also carrying the other header,
// `spoofed`, made up anew (`spoofedPrefix` + 203.0.113.N) as a client sends it
// and the proxy passes it through. The throttle must count 198.51.100.7 and
// the access log name it on every line. Returns the number of 401s before the
// first 429 (at most 2 * kFailuresPerAddress requests are sent).
int failuresBeforeThrottled(ServiceHarness& harness, const ApiClient& victim, const std::string& written,
                            const std::string& value, const std::string& spoofed, const std::string& spoofedPrefix) {
  int unauthorized = 0;
  for (int attempt = 0; attempt < 2 * kFailuresPerAddress; ++attempt) {
    const std::string id = "spray-" + std::to_string(attempt);
    const HttpResult answer = tokenRequest(harness, victim, "guess",
                                           {{spoofed, spoofedPrefix + "203.0.113." + std::to_string(attempt + 1)},
                                            {written, value},
                                            {"X-Request-Id", id}});
    const auto line = accessLine(harness, id);
    EXPECT_TRUE(line) << id;
    EXPECT_EQ(line ? line->getValue<std::string>("client") : "<no line>", "198.51.100.7") << id;
    if (answer.status != 401) {
      EXPECT_EQ(answer.status, 429) << id;
      break;
    }
    ++unauthorized;
  }
  return unauthorized;
}

TEST(TrustedProxy, WritingXForwardedForAClientsForwardedHeaderIsIgnored) {
  ServiceHarness harness(trusting("127.0.0.1", ForwardedHeader::XForwardedFor));
  const ApiClient victim = harness.createClient({"write:codes"});
  EXPECT_EQ(failuresBeforeThrottled(harness, victim, "X-Forwarded-For", "198.51.100.7", "Forwarded", "for="),
            kFailuresPerAddress);
  // A request with only a client's Forwarded is the proxy's own.
  const HttpResult own =
      tokenRequest(harness, victim, victim.secret, {{"Forwarded", "for=198.51.100.7"}, {"X-Request-Id", "own-xff"}});
  EXPECT_EQ(own.status, 200);
  const auto line = accessLine(harness, "own-xff");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->getValue<std::string>("client"), "127.0.0.1");
}

TEST(TrustedProxy, WritingForwardedAClientsXForwardedForIsIgnored) {
  ServiceHarness harness(trusting("127.0.0.1", ForwardedHeader::Forwarded));
  const ApiClient victim = harness.createClient({"write:codes"});
  EXPECT_EQ(failuresBeforeThrottled(harness, victim, "Forwarded", "for=198.51.100.7", "X-Forwarded-For", ""),
            kFailuresPerAddress);
  const HttpResult own = tokenRequest(harness, victim, victim.secret,
                                      {{"X-Forwarded-For", "198.51.100.7"}, {"X-Request-Id", "own-forwarded"}});
  EXPECT_EQ(own.status, 200);
  const auto line = accessLine(harness, "own-forwarded");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->getValue<std::string>("client"), "127.0.0.1");
}

// A failed dashboard sign-in through the proxy: the audit names the address
// the proxy wrote, never the one in the header it does not write.
TEST(TrustedProxy, TheSignInAuditRecordsTheAddressInTheHeaderTheProxyWrites) {
  const std::vector<std::pair<ForwardedHeader, Headers>> cases{
      {ForwardedHeader::XForwardedFor, {{"Forwarded", "for=203.0.113.1"}, {"X-Forwarded-For", "198.51.100.7"}}},
      {ForwardedHeader::Forwarded, {{"X-Forwarded-For", "203.0.113.1"}, {"Forwarded", "for=198.51.100.7"}}}};
  for (const auto& [header, forwarding] : cases) {
    SCOPED_TRACE(std::string(forwardedHeaderName(header)));
    ServiceHarness harness(trusting("127.0.0.1", header));
    Headers headers{{"Content-Type", "application/json"},
                    {"Sec-Fetch-Site", "same-origin"},
                    {"Origin", "https://127.0.0.1:" + std::to_string(harness.port())}};
    headers.insert(headers.end(), forwarding.begin(), forwarding.end());
    const HttpResult refused = harness.request(HttpCall{
        "POST", "/dashboard/data/sign-in", headers, R"({"email":"nobody@example.org","password":"not the password"})"});
    EXPECT_EQ(refused.status, 401) << refused.body;
    accounts::SqlAccountStore store(auth::RegistryDatabase::sqlite(harness.dataDir() / app::kRegistryDatabaseFile),
                                    auth::registryMigrationsDir(harness.service().config().schemaDir));
    const std::vector<accounts::AuditRecord> records =
        store.readAudit(accounts::AuditQuery{std::nullopt, std::string("account.sign-in"), 10});
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].address, "198.51.100.7");
    EXPECT_EQ(records[0].detail, "unknown email");
  }
}

TEST(UntrustedPeer, SpoofedForwardingHeadersChangeNothing) {
  ServiceHarness harness;  // no trusted proxy
  const ApiClient victim = harness.createClient({"write:codes"});
  for (int attempt = 0; attempt < kFailuresPerAddress; ++attempt) {
    // A new made-up address every time: all counted against the peer.
    const std::string spoofed = "198.51.100." + std::to_string(attempt + 1);
    ASSERT_EQ(
        tokenRequest(harness, victim, "guess", {{"X-Forwarded-For", spoofed}, {"Forwarded", "for=" + spoofed}}).status,
        401)
        << attempt;
  }
  EXPECT_EQ(tokenRequest(harness, victim, victim.secret, {{"X-Forwarded-For", "203.0.113.50"}}).status, 429);
  EXPECT_EQ(tokenRequest(harness, victim, victim.secret, {{"Forwarded", "for=203.0.113.51"}}).status, 429);

  // Its X-Request-Id is not taken either, and the log names the peer.
  const HttpResult health = harness.request(
      HttpCall{"GET", "/healthz", {{"X-Request-Id", "spoofed-1"}, {"X-Forwarded-For", "203.0.113.52"}}, ""});
  EXPECT_EQ(health.status, 200);
  const std::string id = health.header("x-request-id");
  EXPECT_TRUE(isGeneratedId(id)) << id;
  const auto line = accessLine(harness, id);
  ASSERT_TRUE(line);
  EXPECT_TRUE(line->getValue<std::string>("client").starts_with("127.0.0.1:")) << line->getValue<std::string>("client");
}

TEST(UntrustedPeer, AProxyListNotNamingThePeerIsIgnoredToo) {
  ServiceHarness harness(trusting("10.0.0.0/8, ::1"));
  const HttpResult health = harness.request(
      HttpCall{"GET", "/healthz", {{"X-Request-Id", "spoofed-2"}, {"X-Forwarded-For", "10.1.1.1"}}, ""});
  const std::string id = health.header("x-request-id");
  EXPECT_TRUE(isGeneratedId(id)) << id;
  const auto line = accessLine(harness, id);
  ASSERT_TRUE(line);
  EXPECT_TRUE(line->getValue<std::string>("client").starts_with("127.0.0.1:"));
}

TEST(RequestIds, AreGeneratedEchoedAndLogged) {
  ServiceHarness harness;
  std::set<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    const HttpResult health = harness.request(HttpCall{"GET", "/healthz", {}, ""});
    EXPECT_EQ(health.status, 200);
    EXPECT_EQ(health.headers.count("x-request-id"), 1u);
    const std::string id = health.header("x-request-id");
    EXPECT_TRUE(isGeneratedId(id)) << id;
    ids.insert(id);
    const auto line = accessLine(harness, id);
    ASSERT_TRUE(line) << id;
    EXPECT_EQ(line->getValue<std::string>("path"), "/healthz");
    EXPECT_EQ(line->getValue<int>("status"), 200);
  }
  EXPECT_EQ(ids.size(), 3u);
  // Every answer has one: an unknown route, and a head the HTTP layer refuses.
  const HttpResult notFound = harness.request(HttpCall{"GET", "/nowhere", {}, ""});
  EXPECT_EQ(notFound.status, 404);
  EXPECT_TRUE(isGeneratedId(notFound.header("x-request-id"))) << notFound.header("x-request-id");
  RawConnection raw(harness);
  raw.send("POST /codes HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
  const HttpResult refused = raw.readResponse();
  EXPECT_EQ(refused.status, 400);
  const std::string refusedId = refused.header("x-request-id");
  EXPECT_TRUE(isGeneratedId(refusedId)) << refusedId;
  // The operational log's line about the refusal carries the same id.
  std::vector<std::pair<std::string, std::string>> aboutRefused;
  for (int attempt = 0; attempt < 100 && aboutRefused.empty(); ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (const auto& line : harness.requestLogLines()) {
      if (line.first == refusedId) aboutRefused.push_back(line);
    }
  }
  ASSERT_EQ(aboutRefused.size(), 1u);
  EXPECT_TRUE(aboutRefused[0].second.starts_with("refused a request from 127.0.0.1:")) << aboutRefused[0].second;
  EXPECT_TRUE(
      aboutRefused[0].second.ends_with(": 400 InvalidFraming: The body length is ambiguous: send one "
                                       "Content-Length or chunked encoding, not both."))
      << aboutRefused[0].second;
}

TEST(RequestIds, ATrustedProxysIdIsKeptAndAnInvalidOneReplaced) {
  ServiceHarness harness(trusting("127.0.0.1"));
  const std::string uuid = "f47ac10b-58cc-4372-a567-0e02b2c3d479";
  const HttpResult kept = harness.request(HttpCall{"GET", "/healthz", {{"X-Request-Id", uuid}}, ""});
  EXPECT_EQ(kept.header("x-request-id"), uuid);
  const auto line = accessLine(harness, uuid);
  ASSERT_TRUE(line);
  EXPECT_TRUE(line->getValue<std::string>("client").starts_with("127.0.0.1")) << line->getValue<std::string>("client");

  // Two fields: the last, the one the proxy added, counts.
  const HttpResult twice = harness.request(
      HttpCall{"GET", "/healthz", {{"X-Request-Id", "from-client"}, {"X-Request-Id", "from-proxy"}}, ""});
  EXPECT_EQ(twice.header("x-request-id"), "from-proxy");

  for (const std::string& invalid :
       {std::string("has space"), std::string(kMaxRequestIdLength + 1, 'a'), std::string("a\"b"), std::string("a,b")}) {
    const HttpResult replaced = harness.request(HttpCall{"GET", "/healthz", {{"X-Request-Id", invalid}}, ""});
    EXPECT_EQ(replaced.status, 200);
    EXPECT_TRUE(isGeneratedId(replaced.header("x-request-id"))) << invalid << " -> " << replaced.header("x-request-id");
  }
  // A line break cannot be smuggled into the answer: the raw bytes show one id line.
  RawConnection raw(harness);
  raw.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: a\tSet-Cookie: x=1\r\n\r\n");
  const HttpResult response = raw.readResponse();
  EXPECT_EQ(response.status, 200);
  EXPECT_TRUE(isGeneratedId(response.header("x-request-id"))) << response.header("x-request-id");
  EXPECT_FALSE(response.has("set-cookie"));
}

}  // namespace
}  // namespace codepayload::server::testing
