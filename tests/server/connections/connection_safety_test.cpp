// Byte-exact framing over a raw TLS connection: a body the server answers
// without reading must never be parsed as the next request, bodies over the
// limit are refused without being read, and a slow client loses its worker.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "tests/server/support/service_harness.h"
#include "tests/server/support/sample_requests.h"

namespace codepayload::server::testing {
namespace {

class ConnectionSafety : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    harness_ = new ServiceHarness([](ServerConfig& config) {
      config.maxBodyBytes = 100 * 1024;
      config.ioTimeout = std::chrono::seconds(1);
      config.keepAliveTimeout = std::chrono::seconds(2);
      config.maxKeepAliveRequests = 5;
    });
    token_ = new std::string(harness_->token(harness_->createClient({"write:codes"})));
  }
  static void TearDownTestSuite() {
    delete token_;
    delete harness_;
  }

  static std::string codesRequest(const std::string& authorization, const std::string& body,
                                  const std::string& extraHeaders = "") {
    return "POST /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
           (authorization.empty() ? std::string() : "Authorization: " + authorization + "\r\n") + extraHeaders +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }
  static std::string healthRequest() { return "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"; }

  static ServiceHarness* harness_;
  static std::string* token_;
};

ServiceHarness* ConnectionSafety::harness_ = nullptr;
std::string* ConnectionSafety::token_ = nullptr;

TEST_F(ConnectionSafety, UnreadSmallBodyIsDrainedAndTheNextRequestIsParsedCleanly) {
  RawConnection connection(*harness_);
  // A 401 answered before the body is read, then a pipelined request.
  connection.send(codesRequest("", "GET /healthz HTTP/1.1\r\n\r\n" + std::string(kOneItem)) + healthRequest());
  const HttpResult unauthorized = connection.readResponse();
  EXPECT_EQ(unauthorized.status, 401);
  EXPECT_EQ(unauthorized.header("connection"), "Keep-Alive");
  const HttpResult health = connection.readResponse();
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, R"({"status":"ok","release":"2026-01-27"})");

  // 404 drains as well (this connection carries at most 5 requests).
  connection.send("POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nGET / HTTP/" + healthRequest());
  EXPECT_EQ(connection.readResponse().status, 404);
  EXPECT_EQ(connection.readResponse().status, 200);

  // And 406, 415 and 405.
  RawConnection second(*harness_);
  second.send(codesRequest("Bearer " + *token_, "GET /x HTTP/1.1\r\n\r\n", "Accept: text/html\r\n") + healthRequest());
  EXPECT_EQ(second.readResponse().status, 406);
  EXPECT_EQ(second.readResponse().status, 200);
  second.send("POST /codes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + *token_ +
              "\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nGET / HTTP/" +
              "PUT /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nGET / HTTP/");
  EXPECT_EQ(second.readResponse().status, 415);
  EXPECT_EQ(second.readResponse().status, 405);
}

TEST_F(ConnectionSafety, UnreadLargeBodyClosesTheConnection) {
  RawConnection connection(*harness_);
  // 80 KiB announced: over the drain limit, under the body limit. Only the
  // start is sent; the answer must not wait for the rest.
  const std::string request = codesRequest("", std::string(80 * 1024, 'x'));
  connection.send(request.substr(0, request.size() - 70 * 1024));
  const HttpResult unauthorized = connection.readResponse();
  EXPECT_EQ(unauthorized.status, 401);
  EXPECT_EQ(unauthorized.header("connection"), "Close");
  EXPECT_TRUE(connection.closedByServer());
}

// Lingering close (RFC 9112 §9.6): a body too large to drain is still read
// and dropped for a while after the answer, so a client that sends it whole
// before it reads (as a proxy does) gets the answer, not a reset.
TEST_F(ConnectionSafety, ABodyTooLargeToDrainIsReadAndDroppedAfterTheAnswerSoTheClientGetsIt) {
  RawConnection connection(*harness_);
  const std::string request = codesRequest("", std::string(1024 * 1024, 'x'));
  connection.send(request);
  const HttpResult unauthorized = connection.readResponse();
  EXPECT_EQ(unauthorized.status, 401);
  EXPECT_EQ(unauthorized.header("connection"), "Close");
  EXPECT_EQ(unauthorized.body,
            R"({"errors":[{"code":"Unauthorized","path":null,"message":"An access token is required: send )"
            R"(Authorization: Bearer <token>."}]})");
  EXPECT_TRUE(connection.closedByServer());
}

TEST_F(ConnectionSafety, ContentLengthOverTheLimitIs413WithoutReadingTheBody) {
  RawConnection connection(*harness_);
  // Announce 10 MiB but send only the headers: the answer must come anyway.
  connection.send("POST /codes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + *token_ +
                  "\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n");
  const HttpResult result = connection.readResponse();
  EXPECT_EQ(result.status, 413);
  EXPECT_EQ(result.header("connection"), "Close");
  EXPECT_EQ(result.body,
            R"({"errors":[{"code":"BodyTooLarge","path":null,"message":"The body is larger than 102400 bytes."}]})");
  EXPECT_TRUE(connection.closedByServer());
}

TEST_F(ConnectionSafety, ChunkedBodiesAreCountedWhileRead) {
  RawConnection connection(*harness_);
  const std::string head = "POST /codes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + *token_ +
                           "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
  const std::string item(kOneItem);
  char size[16];
  std::snprintf(size, sizeof size, "%zx", item.size());
  connection.send(head + size + "\r\n" + item + "\r\n0\r\n\r\n" + healthRequest());
  const HttpResult small = connection.readResponse();
  EXPECT_EQ(small.status, 200);
  EXPECT_EQ(small.body, kOneItemResponse);
  // The chunked body is read to its exact end, so the connection stays open
  // and the pipelined request after it is answered.
  EXPECT_EQ(small.header("connection"), "Keep-Alive");
  const HttpResult health = connection.readResponse();
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, R"({"status":"ok","release":"2026-01-27"})");

  RawConnection flood(*harness_);
  const std::string chunk(32 * 1024, ' ');
  std::string request = head;
  for (int i = 0; i < 4; ++i) request += "8000\r\n" + chunk + "\r\n";  // 128 KiB > 100 KiB
  request += "0\r\n\r\n";
  flood.send(request);
  const HttpResult large = flood.readResponse();
  EXPECT_EQ(large.status, 413);
  EXPECT_EQ(large.header("connection"), "Close");
}

TEST_F(ConnectionSafety, AmbiguousOrMissingLengthsCloseTheConnection) {
  RawConnection both(*harness_);
  both.send("POST /codes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + *token_ +
            "\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
  const HttpResult ambiguous = both.readResponse();
  EXPECT_EQ(ambiguous.status, 400);
  EXPECT_EQ(ambiguous.body,
            R"({"errors":[{"code":"InvalidFraming","path":null,"message":"The body length is ambiguous: send one )"
            R"(Content-Length or chunked encoding, not both."}]})");
  EXPECT_TRUE(both.closedByServer());

  RawConnection missing(*harness_);
  missing.send("POST /codes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + *token_ +
               "\r\nContent-Type: application/json\r\n\r\n" + kOneItem);
  const HttpResult lengthRequired = missing.readResponse();
  EXPECT_EQ(lengthRequired.status, 411);
  EXPECT_EQ(lengthRequired.reason, "Length Required");
  EXPECT_TRUE(missing.closedByServer());
}

TEST_F(ConnectionSafety, KeepAliveCarriesAtMostTheConfiguredNumberOfRequests) {
  RawConnection connection(*harness_);
  for (int i = 0; i < 5; ++i) {
    connection.send(codesRequest("Bearer " + *token_, kOneItem));
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, 200) << i;
    EXPECT_EQ(result.body, kOneItemResponse) << i;
  }
  EXPECT_TRUE(connection.closedByServer());
}

TEST_F(ConnectionSafety, ASilentClientLosesItsConnectionAfterTheTimeout) {
  RawConnection connection(*harness_);
  connection.send("POST /codes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + *token_ +
                  "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"codes\"");
  const auto started = std::chrono::steady_clock::now();
  const HttpResult result = connection.readResponse();
  const auto waited = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(result.status, 400);
  EXPECT_EQ(
      result.body,
      R"({"errors":[{"code":"IncompleteBody","path":null,"message":"The body ended before its announced length."}]})");
  EXPECT_LT(waited, std::chrono::seconds(4));
  EXPECT_TRUE(connection.closedByServer());
}

TEST_F(ConnectionSafety, AnIdleConnectionIsKeptForTheKeepAliveTimeoutThenClosed) {
  RawConnection connection(*harness_);
  connection.send(healthRequest());
  ASSERT_EQ(connection.readResponse().status, 200);
  // Half the 2 s keep-alive timeout later the connection still serves.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  connection.send(healthRequest());
  const HttpResult second = connection.readResponse();
  EXPECT_EQ(second.status, 200);
  EXPECT_EQ(second.body, R"({"status":"ok","release":"2026-01-27"})");
  // Then nothing: the server closes it once the timeout has passed, not before.
  const auto answered = std::chrono::steady_clock::now();
  EXPECT_TRUE(connection.closedByServer(std::chrono::seconds(5)));
  const auto waited = std::chrono::steady_clock::now() - answered;
  EXPECT_GE(waited, std::chrono::milliseconds(1500));  // not at the 1 s I/O timeout
  EXPECT_LT(waited, std::chrono::seconds(4));
}

TEST_F(ConnectionSafety, PoolSurvivesManyConcurrentClients) {
  std::vector<std::thread> clients;
  std::atomic<int> ok{0};
  for (int t = 0; t < 8; ++t) {
    clients.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        const HttpResult result = harness_->codes(*token_, kOneItem);
        if (result.status == 200 && result.body == kOneItemResponse) ++ok;
      }
    });
  }
  for (auto& client : clients) client.join();
  EXPECT_EQ(ok.load(), 80);
}

}  // namespace
}  // namespace codepayload::server::testing
