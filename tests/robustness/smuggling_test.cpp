// Request smuggling and strict head parsing against the real service (HTTPS
// on 127.0.0.1). Every route, present and future, gets its body read or
// refused by the connection: a request hidden in a body (Content-Length or
// chunked, on GET as on POST) is never answered, and a head RFC 9112 §5 says
// to reject gets exactly one 400-class answer and a closed connection.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "tests/robustness/requests.h"
#include "tests/robustness/tls_connection.h"

namespace codepayload::robustness {
namespace {

using server::ServerConfig;
using server::testing::ServiceHarness;

// A request that, if ever parsed as one, answers 404 with this path nowhere
// else: the marker of a smuggled request.
const std::string kHidden = "GET /smuggled-marker HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
const std::string kHealthRequest = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

std::string envelope(const std::string& code, const std::string& message) {
  return R"({"errors":[{"code":")" + code + R"(","path":null,"message":")" + message + R"("}]})";
}

std::string chunked(const std::string& body) {
  char size[32];
  std::snprintf(size, sizeof size, "%zx", body.size());
  return std::string(size) + "\r\n" + body + "\r\n0\r\n\r\n";
}

class Smuggling : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    harness_ = std::make_unique<ServiceHarness>([](ServerConfig& config) {
      config.ioTimeout = std::chrono::seconds(2);
      config.keepAliveTimeout = std::chrono::seconds(3);
    });
    endpoint_ = ServiceEndpoint{harness_->port(), harness_->clientContext()};
    token_ = harness_->token(harness_->createClient({"write:codes"}));
  }
  static void TearDownTestSuite() { harness_.reset(); }

  struct Route {
    std::string name;
    std::string requestLine;  // "GET /healthz HTTP/1.1"
    std::string headers;      // beyond Host, each ending in CRLF
    int status;               // the route's answer to a body that is a request
  };

  static std::vector<Route> routes() {
    return {
        {"health", "GET /healthz HTTP/1.1", "", 200},
        {"jwks", "GET /.well-known/jwks.json HTTP/1.1", "", 200},
        {"token", "POST /oauth/token HTTP/1.1",
         "Authorization: Basic eDp5\r\nContent-Type: application/x-www-form-urlencoded\r\n", 400},
        {"token, wrong method", "GET /oauth/token HTTP/1.1", "", 405},
        {"codes", "POST /codes HTTP/1.1", "Authorization: Bearer " + token_ + "\r\nContent-Type: application/json\r\n",
         400},
        {"codes, no token", "POST /codes HTTP/1.1", "Content-Type: application/json\r\n", 401},
        {"codes, wrong method", "GET /codes HTTP/1.1", "", 405},
        {"unknown path", "POST /nowhere HTTP/1.1", "", 404},
    };
  }

  // Sends `bytes` then a health check on the same connection; expects the
  // route's answer, then the health answer, then nothing: the hidden request
  // is never answered.
  static void expectOneAnswerThenHealth(const std::string& bytes, int status) {
    TlsConnection connection(endpoint_);
    ASSERT_TRUE(connection.send(bytes + kHealthRequest));
    const HttpResult first = connection.readResponse();
    EXPECT_EQ(first.status, status) << first.body;
    EXPECT_EQ(first.body.find("smuggled"), std::string::npos);
    EXPECT_EQ(first.header("connection"), "Keep-Alive");
    const HttpResult second = connection.readResponse();
    EXPECT_EQ(second.status, 200) << second.body;
    EXPECT_EQ(second.body, kHealth2026);
    const HttpResult third = connection.readResponse(std::chrono::milliseconds(500));
    EXPECT_EQ(third.status, 0) << "answered a request hidden in a body: " << third.body;
  }

  // Sends `bytes`; expects the health answer with Connection: Close, then the close.
  static void expectHealthThenClose(const std::string& bytes) {
    TlsConnection connection(endpoint_);
    ASSERT_TRUE(connection.send(bytes));
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, 200);
    EXPECT_EQ(result.body, kHealth2026);
    EXPECT_EQ(result.header("connection"), "Close");
    EXPECT_TRUE(connection.closedByServer());
  }

  // Sends `bytes`; expects exactly `status` with `body`, then the close.
  static void expectRefusedAndClosed(const std::string& bytes, int status, const std::string& body) {
    SCOPED_TRACE(::testing::PrintToString(bytes.substr(0, 120)));
    TlsConnection connection(endpoint_);
    connection.send(bytes + kHidden);
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, status);
    EXPECT_EQ(result.body, body);
    EXPECT_EQ(result.header("connection"), "Close");
    EXPECT_TRUE(connection.closedByServer());
  }

  static std::unique_ptr<ServiceHarness> harness_;
  static ServiceEndpoint endpoint_;
  static std::string token_;
};

std::unique_ptr<ServiceHarness> Smuggling::harness_;
ServiceEndpoint Smuggling::endpoint_;
std::string Smuggling::token_;

TEST_F(Smuggling, ARequestHiddenInAContentLengthBodyIsNeverAnswered) {
  for (const Route& route : routes()) {
    SCOPED_TRACE(route.name);
    expectOneAnswerThenHealth(route.requestLine + "\r\nHost: 127.0.0.1\r\n" + route.headers +
                                  "Content-Length: " + std::to_string(kHidden.size()) + "\r\n\r\n" + kHidden,
                              route.status);
  }
}

TEST_F(Smuggling, ARequestHiddenInAChunkedBodyIsNeverAnswered) {
  for (const Route& route : routes()) {
    SCOPED_TRACE(route.name);
    expectOneAnswerThenHealth(route.requestLine + "\r\nHost: 127.0.0.1\r\n" + route.headers +
                                  "Transfer-Encoding: chunked\r\n\r\n" + chunked(kHidden),
                              route.status);
  }
}

TEST_F(Smuggling, ABodyTooLargeToDrainClosesTheConnectionAfterTheAnswer) {
  // 100 KiB announced on GET /healthz: over what a route without a body
  // drains, so the answer comes and the connection closes unread.
  expectHealthThenClose("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 102400\r\n\r\n" + kHidden);
}

TEST_F(Smuggling, HeadsRfc9112SaysToRejectGetOneAnswerAndAClose) {
  const std::string health = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  const std::string invalidHeader = "InvalidHeader";
  expectRefusedAndClosed(health + "Transfer-Encoding : chunked\r\n\r\n", 400,
                         envelope(invalidHeader,
                                  "Whitespace between a header name and its colon (refused by RFC 9112 "
                                  "§5.1)."));
  expectRefusedAndClosed(
      health + "X-Folded: a\r\n b\r\n\r\n", 400,
      envelope(invalidHeader, "A header line starts with whitespace (obs-fold, refused by RFC 9112 §5.2)."));
  expectRefusedAndClosed(health + "No colon\r\n\r\n", 400, envelope(invalidHeader, "A header line has no colon."));
  expectRefusedAndClosed(health + "Bad Name: v\r\n\r\n", 400,
                         envelope(invalidHeader, "A header name is not a token (RFC 9110 §5.1)."));
  expectRefusedAndClosed("GET /healthz HTTP/1.1\r\nX-A: a\rHost: 127.0.0.1\r\n\r\n", 400,
                         envelope(invalidHeader, "A CR is not followed by LF."));
  expectRefusedAndClosed("GET /healthz HTTP/1.1\nHost: 127.0.0.1\n\n", 400,
                         envelope(invalidHeader, "A line ends in LF without CR (RFC 9112 §2.2)."));
  expectRefusedAndClosed(
      "POST /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: =?UTF-8?B?QmVhcmVyIHg=?=\r\n"
      "Content-Length: 0\r\n\r\n",
      400, envelope(invalidHeader, "RFC 2047 encoded words are not accepted in 'Authorization'."));
  expectRefusedAndClosed("GET /healthz HTTP/1.1\r\n\r\n", 400,
                         envelope(invalidHeader, "Send exactly one Host header (RFC 9112 §3.2)."));
  for (const std::string length : {"+5", "0005", "0x10", "5, 5", "abc", "18446744073709551616", "-1"}) {
    expectRefusedAndClosed("POST /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + length + "\r\n\r\n", 400,
                           envelope("InvalidFraming",
                                    "Content-Length must be a byte count: decimal digits only, no sign, no leading "
                                    "zeros."));
  }
  expectRefusedAndClosed("POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501,
                         envelope("NotImplemented", "The only transfer coding this server reads is chunked."));
}

TEST_F(Smuggling, ARefusedHeadIsAnsweredWithoutWaitingForTheBodyItAnnounced) {
  // The head is refused after its Content-Length was read (the expectation
  // is checked later): nothing after a refused head is read, so the answer
  // comes at once (well within this suite's 2 s I/O timeout, which a drain of
  // the 100 announced bytes would wait out).
  TlsConnection connection(endpoint_);
  ASSERT_TRUE(connection.send("POST /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\nExpect: x\r\n\r\n"));
  const HttpResult result = connection.readResponse(std::chrono::milliseconds(1000));
  EXPECT_EQ(result.status, 417);
  EXPECT_EQ(result.body, envelope("ExpectationFailed", "The only expectation this server meets is 100-continue."));
  EXPECT_TRUE(connection.closedByServer());
}

TEST_F(Smuggling, TheVersionIsNeverEchoed) {
  expectRefusedAndClosed("GET /healthz <script>\r\nHost: 127.0.0.1\r\n\r\n", 400,
                         envelope("InvalidRequestLine", "The request line must end in HTTP/1.1 or HTTP/1.0."));
  for (const std::string version : {"HTTP/2.0", "HTTP/1.2", "HTTP/0.9"}) {
    expectRefusedAndClosed("GET /healthz " + version + "\r\nHost: 127.0.0.1\r\n\r\n", 505,
                           envelope("HttpVersionNotSupported", "This server speaks HTTP/1.1 and HTTP/1.0 only."));
  }
  // An HTTP/1.0 request is answered in HTTP/1.1 (RFC 9110 §6.2) and closed.
  expectHealthThenClose("GET /healthz HTTP/1.0\r\n\r\n");
}

TEST_F(Smuggling, ContinueIsSentOnlyWhenTheBodyIsWanted) {
  const std::string item(kOneItem);
  {
    TlsConnection connection(endpoint_);
    ASSERT_TRUE(connection.send("POST /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token_ +
                                "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: " +
                                std::to_string(item.size()) + "\r\n\r\n"));
    const HttpResult interim = connection.readResponse();
    EXPECT_EQ(interim.status, 100);
    ASSERT_TRUE(connection.send(item));
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, 200);
    EXPECT_EQ(result.body, kOneItemResponse);
  }
  {
    // Refused before the body is wanted: no 100, and the connection closes
    // (the client may or may not send the body it announced).
    TlsConnection connection(endpoint_);
    ASSERT_TRUE(
        connection.send("POST /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        "Expect: 100-continue\r\nContent-Length: " +
                        std::to_string(item.size()) + "\r\n\r\n"));
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, 401);
    EXPECT_EQ(result.header("connection"), "Close");
    EXPECT_TRUE(connection.closedByServer());
  }
}

TEST_F(Smuggling, RefusedHeadsAreLogged) {
  expectRefusedAndClosed(
      "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad : v\r\n\r\n", 400,
      envelope("InvalidHeader", "Whitespace between a header name and its colon (refused by RFC 9112 §5.1)."));
  bool logged = false;
  for (const std::string& line : harness_->serviceLog()) {
    logged = logged || (line.starts_with("refused a request from 127.0.0.1:") &&
                        line.ends_with(": 400 InvalidHeader: Whitespace between a header name and its colon "
                                       "(refused by RFC 9112 §5.1)."));
  }
  EXPECT_TRUE(logged);
}

}  // namespace
}  // namespace codepayload::robustness
