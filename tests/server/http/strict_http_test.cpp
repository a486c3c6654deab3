// HTTP semantics on the wire, against the real service: HEAD on the GET
// routes (RFC 9110 §9.3.2), Strict-Transport-Security on every answer of a
// TLS listener and on none of the plain listener's, the reason phrases of the
// status line, and the request targets and Host values the head parser
// refuses (server/http/http_head.cpp, tests/server/http/http_head_test.cpp).
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <sstream>
#include <string>

#include "server/request_router.h"
#include "tests/server/support/service_harness.h"

namespace codepayload::server::testing {
namespace {

constexpr const char* kHsts = "max-age=31536000";
const char* const kGetRoutes[] = {"/healthz", "/healthz/live", "/healthz/ready", "/.well-known/jwks.json",
                                  "/openapi.json"};

std::string envelope(const std::string& code, const std::string& message) {
  return R"({"errors":[{"code":")" + code + R"(","path":null,"message":")" + message + R"("}]})";
}

// One request on `session` (plain or TLS), without recording it.
HttpResult exchange(Poco::Net::HTTPClientSession& session, const std::string& method, const std::string& target) {
  session.setTimeout(Poco::Timespan(10, 0));
  Poco::Net::HTTPRequest request(method, target, Poco::Net::HTTPMessage::HTTP_1_1);
  session.sendRequest(request);
  Poco::Net::HTTPResponse response;
  std::istream& in = session.receiveResponse(response);
  HttpResult result;
  result.status = static_cast<int>(response.getStatus());
  result.reason = response.getReason();
  for (const auto& [name, value] : response) {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    result.headers.emplace(lower, value);
  }
  std::ostringstream body;
  Poco::StreamCopier::copyStream(in, body);
  result.body = body.str();
  return result;
}

TEST(StrictHttp, HeadOnEveryGetRouteIsTheGetWithoutItsBody) {
  ServiceHarness harness;
  for (const std::string target : kGetRoutes) {
    const HttpResult got = harness.request(HttpCall{"GET", target, {}, ""});
    const HttpResult headed = harness.request(HttpCall{"HEAD", target, {}, ""});
    EXPECT_EQ(headed.status, got.status) << target;
    EXPECT_EQ(headed.reason, got.reason) << target;
    EXPECT_EQ(headed.header("content-type"), got.header("content-type")) << target;
    EXPECT_EQ(headed.header("content-length"), std::to_string(got.body.size())) << target;
    EXPECT_EQ(headed.header("cache-control"), got.header("cache-control")) << target;
    EXPECT_EQ(headed.body, "") << target;
    EXPECT_FALSE(got.body.empty()) << target;
  }
  // No body bytes follow the answer to HEAD: the next answer on the
  // connection starts right after its head.
  RawConnection connection(harness);
  connection.send(
      "HEAD /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  const HttpResult headed = connection.readResponse(false);
  EXPECT_EQ(headed.status, 200);
  EXPECT_NE(headed.header("content-length"), "0");
  const HttpResult next = connection.readResponse();
  EXPECT_EQ(next.status, 200);
  EXPECT_EQ(next.body, R"({"status":"ok","release":"2026-01-27"})");
  EXPECT_FALSE(connection.closedByServer(std::chrono::seconds(1)));
  // The access log counts no body bytes for it.
  bool logged = false;
  for (const std::string& line : harness.accessLogLines()) {
    if (line.find(R"("method":"HEAD","path":"/openapi.json","status":200,"bytes":0,)") != std::string::npos) {
      logged = true;
    }
  }
  EXPECT_TRUE(logged);
}

TEST(StrictHttp, EveryAnswerOfTheTlsListenerCarriesHstsAndNoneOfThePlainListener) {
  ServiceHarness harness([](ServerConfig& config) { config.plainListen = ListenAddress{"127.0.0.1", 0}; });
  ASSERT_TRUE(harness.service().plainPort());
  struct Row {
    std::string method;
    std::string target;
    int status;
  };
  const Row rows[] = {{"GET", "/healthz", 200},
                      {"HEAD", "/.well-known/jwks.json", 200},
                      {"GET", "/nowhere", 404},
                      {"GET", "/codes", 405},
                      {"POST", "/codes", 401},
                      {"GET", "/oauth/token", 405},
                      {"GET", "/dashboard/sign-in", 200},
                      {"GET", "/dashboard/", 303},
                      {"GET", "/dashboard/data/session", 401}};
  for (const Row& row : rows) {
    const HttpResult overTls = harness.request(HttpCall{row.method, row.target, {}, ""});
    EXPECT_EQ(overTls.status, row.status) << row.method << " " << row.target;
    EXPECT_EQ(overTls.header("strict-transport-security"), kHsts) << row.method << " " << row.target;
    EXPECT_EQ(overTls.headers.count("strict-transport-security"), 1u) << row.method << " " << row.target;

    Poco::Net::HTTPClientSession plain("127.0.0.1", *harness.service().plainPort());
    const HttpResult overPlain = exchange(plain, row.method, row.target);
    EXPECT_EQ(overPlain.status, row.status) << row.method << " " << row.target;
    EXPECT_FALSE(overPlain.has("strict-transport-security")) << row.method << " " << row.target;
  }
  EXPECT_EQ(kStrictTransportSecurity, kHsts);
}

TEST(StrictHttp, TheDashboardsOwnListenerCarriesHsts) {
  ServiceHarness harness([](ServerConfig& config) { config.dashboardListen = ListenAddress{"127.0.0.1", 0}; });
  ASSERT_TRUE(harness.service().dashboardPort());
  for (const std::string target : {"/dashboard/sign-in", "/dashboard/nothing-here", "/healthz"}) {
    Poco::Net::HTTPSClientSession session("127.0.0.1", *harness.service().dashboardPort(), harness.clientContext());
    const HttpResult result = exchange(session, "GET", target);
    EXPECT_EQ(result.status, target == "/dashboard/sign-in" ? 200 : 404) << target;
    EXPECT_EQ(result.header("strict-transport-security"), kHsts) << target;
  }
}

// The findings of the black-box test, on the wire: each is refused before
// routing with a 400 (CONNECT: 501) and its reason phrase, and the
// connection closes.
TEST(StrictHttp, RefusedTargetsAndHostsOnTheWire) {
  ServiceHarness harness;
  struct Row {
    std::string request;
    int status;
    std::string reason;
    std::string body;
  };
  const std::string host = "Host: 127.0.0.1\r\n";
  const Row rows[] = {
      {"GET /healthz#top HTTP/1.1\r\n" + host + "\r\n", 400, "Bad Request",
       envelope("InvalidRequestLine", "The request target must not hold a fragment ('#'; RFC 9112 §3.2).")},
      {"GET https://user@127.0.0.1/healthz HTTP/1.1\r\n" + host + "\r\n", 400, "Bad Request",
       envelope("InvalidRequestLine", "The request target must not hold userinfo (user@host; RFC 9110 §4.2.4).")},
      {"GET ftp://127.0.0.1/healthz HTTP/1.1\r\n" + host + "\r\n", 400, "Bad Request",
       envelope("InvalidRequestLine", "An absolute-form target must be an http or https URI.")},
      {"GET * HTTP/1.1\r\n" + host + "\r\n", 400, "Bad Request",
       envelope("InvalidRequestLine", "The target '*' (asterisk-form) is only for OPTIONS (RFC 9112 §3.2.4).")},
      {"GET 127.0.0.1:443 HTTP/1.1\r\n" + host + "\r\n", 400, "Bad Request",
       envelope("InvalidRequestLine", "The target host:port (authority-form) is only for CONNECT (RFC 9112 §3.2.3).")},
      {"CONNECT 127.0.0.1:443 HTTP/1.1\r\n" + host + "\r\n", 501, "Not Implemented",
       envelope("NotImplemented", "This server does not implement CONNECT: it is not a proxy.")},
      {"GET /healthz HTTP/1.1\r\nHost: x:abc\r\n\r\n", 400, "Bad Request",
       envelope("InvalidHeader", "The Host port must be 1 to 5 digits, at most 65535.")},
      {"GET /healthz HTTP/1.1\r\nHost: 127.1\r\n\r\n", 400, "Bad Request",
       envelope(
           "InvalidHeader",
           "The Host name is not a registered name, an IPv4 address or a bracketed IP address (RFC 3986 §3.2.2).")},
      {"POST /codes HTTP/1.1\r\n" + host +
           "Content-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}",
       400, "Bad Request", envelope("InvalidHeader", "Send one Content-Type header, not several.")},
      {"POST /oauth/token HTTP/1.1\r\n" + host +
           "Authorization: Basic eDp5\r\nAuthorization: Basic eTp6\r\nContent-Length: 0\r\n\r\n",
       400, "Bad Request", envelope("InvalidHeader", "Send one Authorization header, not several.")},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.request.substr(0, row.request.find('\r')));
    RawConnection connection(harness);
    connection.send(row.request);
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, row.status);
    EXPECT_EQ(result.reason, row.reason);
    EXPECT_EQ(result.body, row.body);
    EXPECT_EQ(result.header("connection"), "Close");
    // Refused before any route, over TLS all the same.
    EXPECT_EQ(result.header("strict-transport-security"), kHsts);
    EXPECT_TRUE(connection.closedByServer());
  }
  // The accepted forms still reach their routes.
  for (const std::string requestLine :
       {"GET https://127.0.0.1/healthz HTTP/1.1", "GET HTTP://[::1]:8443/healthz?x HTTP/1.1"}) {
    RawConnection connection(harness);
    connection.send(requestLine + "\r\n" + host + "\r\n");
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, 200) << requestLine;
    EXPECT_EQ(result.reason, "OK") << requestLine;
  }
}

}  // namespace
}  // namespace codepayload::server::testing
