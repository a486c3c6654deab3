// POST /codes and memory (D-S3): a response over 1 MiB is streamed chunked and
// is exact; a small one keeps its Content-Length; a client over its limit of
// large requests in flight gets 429 TooManyRequests with Retry-After while
// other clients, and the same client afterwards, are served.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "tests/server/support/service_harness.h"

namespace codepayload::server::testing {
namespace {

// One definition that fails with 13 errors (a 1-digit GTIN, repeated as 12 AIs).
std::string failingItem() {
  std::string ais;
  for (int index = 0; index < 12; ++index) ais += std::string(index == 0 ? "" : ",") + R"({"key":"01","value":"1"})";
  return R"({"primaryKey":{"key":"01","value":"1"},"ais":[)" + ais + R"(],"extensionParameters":[]})";
}

std::string failingBatch(std::size_t items) {
  std::string body = R"({"codes":[)";
  for (std::size_t index = 0; index < items; ++index) body += (index == 0 ? "" : ",") + failingItem();
  return body + "]}";
}

// The errors array of a failing item, from a one-item answer.
std::string errorsOfOneItem(const std::string& oneItemResponse) {
  const std::string prefix = R"({"codes":[],"failures":[{"reference":"0","errors":)";
  EXPECT_TRUE(oneItemResponse.starts_with(prefix)) << oneItemResponse;
  return oneItemResponse.substr(prefix.size(), oneItemResponse.size() - prefix.size() - 3);  // less "}]}"
}

std::string expectedFailures(std::size_t items, const std::string& errors) {
  std::string text = R"({"codes":[],"failures":[)";
  for (std::size_t index = 0; index < items; ++index) {
    text += (index == 0 ? "" : ",") + std::string(R"({"reference":")") + std::to_string(index) + R"(","errors":)" +
            errors + "}";
  }
  return text + "]}";
}

std::string codesHead(const std::string& accessToken, std::size_t contentLength) {
  return "POST /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + accessToken +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(contentLength) + "\r\n\r\n";
}

TEST(LargeRequests, AResponseOverOneMebibyteIsStreamedChunkedAndExact) {
  ServiceHarness harness;
  const std::string token = harness.token(harness.createClient({"write:codes"}));
  const HttpResult one = harness.codes(token, failingBatch(1));
  ASSERT_EQ(one.status, 200);
  EXPECT_EQ(one.header("content-length"), std::to_string(one.body.size()));
  EXPECT_FALSE(one.has("transfer-encoding"));
  const std::string errors = errorsOfOneItem(one.body);

  constexpr std::size_t kItems = 2000;  // about 5.6 MiB of failures
  const HttpResult many = harness.codes(token, failingBatch(kItems));
  ASSERT_EQ(many.status, 200);
  EXPECT_EQ(many.header("transfer-encoding"), "chunked");
  EXPECT_FALSE(many.has("content-length"));
  EXPECT_EQ(many.header("content-type"), one.header("content-type"));
  EXPECT_EQ(many.header("x-content-type-options"), "nosniff");
  ASSERT_GT(many.body.size(), 4u * 1024 * 1024);
  EXPECT_EQ(many.body, expectedFailures(kItems, errors));
}

TEST(LargeRequests, AClientOverItsLimitGets429WhileOthersAndLaterRequestsAreServed) {
  ServiceHarness harness([](ServerConfig& config) {
    config.largeBodyBytes = 1024;
    config.maxLargeRequestsPerClient = 1;
  });
  const std::string tokenA = harness.token(harness.createClient({"write:codes"}));
  const std::string tokenB = harness.token(harness.createClient({"write:codes"}));
  const std::string large = failingBatch(4);  // over 1,024 bytes
  ASSERT_GT(large.size(), 1024u);
  const std::string small = failingBatch(1);  // under
  ASSERT_LT(small.size(), 1024u);

  // Client A's first large request holds its slot while its body is still
  // being sent.
  RawConnection holding(harness);
  holding.send(codesHead(tokenA, large.size()) + large.substr(0, 100));

  // Once the server is reading that body, A's next large request is refused.
  HttpResult refused;
  for (int attempt = 0; attempt < 100 && refused.status != 429; ++attempt) {
    refused = harness.codes(tokenA, large);
    if (refused.status != 429) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(refused.status, 429);
  EXPECT_EQ(refused.header("retry-after"), "1");
  EXPECT_EQ(refused.header("content-type"), "application/json");
  EXPECT_EQ(refused.body,
            R"({"errors":[{"code":"TooManyRequests","path":null,"message":"This client already has as many large )"
            R"(requests in progress as it may (1); send this one again when one of them is answered."}]})");

  // A's small requests and B's large ones are served meanwhile.
  EXPECT_EQ(harness.codes(tokenA, small).status, 200);
  EXPECT_EQ(harness.codes(tokenB, large).status, 200);

  // A's first request finishes; then A's large requests are served again.
  holding.send(large.substr(100));
  const HttpResult first = holding.readResponse();
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(harness.codes(tokenA, large).status, 200);
}

TEST(LargeRequests, ARefusedBodyIsReadSoTheConnectionServesTheNextRequest) {
  ServiceHarness harness([](ServerConfig& config) {
    config.largeBodyBytes = 1024;
    config.maxLargeRequestsPerClient = 1;
  });
  const std::string token = harness.token(harness.createClient({"write:codes"}));
  const std::string large = failingBatch(4);
  RawConnection holding(harness);
  holding.send(codesHead(token, large.size()) + large.substr(0, 100));

  RawConnection second(harness);
  HttpResult refused;
  for (int attempt = 0; attempt < 100; ++attempt) {
    second.send(codesHead(token, large.size()) + large);
    refused = second.readResponse();
    if (refused.status == 429) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(refused.status, 429);
  // The same connection, kept alive, is served next.
  second.send(codesHead(token, failingBatch(1).size()) + failingBatch(1));
  EXPECT_EQ(second.readResponse().status, 200);
  holding.send(large.substr(100));
  EXPECT_EQ(holding.readResponse().status, 200);
}

}  // namespace
}  // namespace codepayload::server::testing
