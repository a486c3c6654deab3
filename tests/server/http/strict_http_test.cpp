// HTTP semantics on the wire, against the real service: HEAD on the GET
// routes (RFC 9110 §9.3.2).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "service_harness.h"

namespace codepayload::server::testing {
namespace {

const char* const kGetRoutes[] = {"/healthz", "/healthz/live", "/healthz/ready", "/.well-known/jwks.json",
                                  "/openapi.json"};

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

}  // namespace
}  // namespace codepayload::server::testing
