// POST /oauth/token over real HTTPS: the spec's error table, the headers of
// every answer, and the framing errors the HTTP layer answers itself.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <string>

#include "service_harness.h"

namespace codepayload::server::testing {
namespace {

const std::string kForm = "application/x-www-form-urlencoded";

class TokenEndpoint : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    harness_ = new ServiceHarness();
    client_ = new ApiClient(harness_->createClient({"write:codes"}));
  }
  static void TearDownTestSuite() {
    delete client_;
    delete harness_;
  }

  static HttpResult post(const std::string& target, const std::string& authorization, const std::string& contentType,
                         const std::string& body) {
    HttpCall call{"POST", target, {}, body};
    if (!authorization.empty()) call.headers.emplace_back("Authorization", authorization);
    if (!contentType.empty()) call.headers.emplace_back("Content-Type", contentType);
    return harness_->request(call);
  }

  static void expectTokenErrorHeaders(const HttpResult& result) {
    EXPECT_EQ(result.header("content-type"), "application/json");
    EXPECT_EQ(result.header("cache-control"), "no-store");
    EXPECT_EQ(result.header("pragma"), "no-cache");
    EXPECT_EQ(result.header("x-content-type-options"), "nosniff");
    EXPECT_FALSE(result.has("server"));
  }

  static ServiceHarness* harness_;
  static ApiClient* client_;
};

ServiceHarness* TokenEndpoint::harness_ = nullptr;
ApiClient* TokenEndpoint::client_ = nullptr;

TEST_F(TokenEndpoint, IssuesABearerTokenWithNoStore) {
  const HttpResult result = post("/oauth/token", basicAuthorization(client_->clientId, client_->secret), kForm,
                                 "grant_type=client_credentials");
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.reason, "OK");
  expectTokenErrorHeaders(result);
  const auto body = Poco::JSON::Parser().parse(result.body).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(body->getValue<std::string>("token_type"), "Bearer");
  EXPECT_EQ(body->getValue<int>("expires_in"), 3600);
  EXPECT_EQ(body->size(), 3u);
  const std::string token = body->getValue<std::string>("access_token");
  EXPECT_EQ(harness_->codes(token, R"({"codes":[]})").body, R"({"codes":[],"failures":[]})");

  const HttpResult fromQuery = post("/oauth/token?grant_type=client_credentials",
                                    basicAuthorization(client_->clientId, client_->secret), kForm, "");
  EXPECT_EQ(fromQuery.status, 200);
}

TEST_F(TokenEndpoint, ErrorRowsOfTheSpec) {
  struct Row {
    std::string name;
    std::string target;
    std::string authorization;
    std::string contentType;
    std::string body;
    int status;
    std::string reason;
    std::string error;
  };
  const std::string good = basicAuthorization(client_->clientId, client_->secret);
  const Row rows[] = {
      {"no grant_type", "/oauth/token", good, kForm, "", 400, "Bad Request", "invalid_request"},
      {"empty grant_type", "/oauth/token", good, kForm, "grant_type=", 400, "Bad Request", "invalid_request"},
      {"grant_type twice", "/oauth/token?grant_type=client_credentials", good, kForm, "grant_type=client_credentials",
       400, "Bad Request", "invalid_request"},
      {"password grant", "/oauth/token", good, kForm, "grant_type=password", 400, "Bad Request",
       "unsupported_grant_type"},
      {"JSON body", "/oauth/token", good, "application/json", R"({"grant_type":"client_credentials"})", 400,
       "Bad Request", "invalid_request"},
      {"no Authorization", "/oauth/token", "", kForm, "grant_type=client_credentials", 401, "Unauthorized",
       "invalid_client"},
      {"wrong secret", "/oauth/token", basicAuthorization(client_->clientId, client_->secret + "x"), kForm,
       "grant_type=client_credentials", 401, "Unauthorized", "invalid_client"},
      {"unknown client", "/oauth/token", basicAuthorization("svc_client_000000000000000000000000", client_->secret),
       kForm, "grant_type=client_credentials", 401, "Unauthorized", "invalid_client"},
      {"bearer instead of basic", "/oauth/token", "Bearer abc", kForm, "grant_type=client_credentials", 401,
       "Unauthorized", "invalid_client"},
      {"body over the limit", "/oauth/token", good, kForm, "grant_type=client_credentials&x=" + std::string(9000, 'a'),
       400, "Bad Request", "invalid_request"},
  };
  for (const Row& row : rows) {
    const HttpResult result = post(row.target, row.authorization, row.contentType, row.body);
    EXPECT_EQ(result.status, row.status) << row.name;
    EXPECT_EQ(result.reason, row.reason) << row.name;
    EXPECT_EQ(result.body, R"({"error":")" + row.error + R"("})") << row.name;
    expectTokenErrorHeaders(result);
    if (row.status == 401) {
      EXPECT_EQ(result.header("www-authenticate"), R"(Basic realm="codepayload")") << row.name;
    }
  }
}

TEST_F(TokenEndpoint, OtherMethodsAre405WithTheFlatBody) {
  for (const std::string method : {"GET", "PUT", "DELETE"}) {
    const HttpResult result = harness_->request(HttpCall{method, "/oauth/token", {}, ""});
    EXPECT_EQ(result.status, 405) << method;
    EXPECT_EQ(result.reason, "Method Not Allowed");
    EXPECT_EQ(result.header("allow"), "POST");
    EXPECT_EQ(result.body, R"({"error":"invalid_request"})");
    expectTokenErrorHeaders(result);
  }
}

TEST_F(TokenEndpoint, LapsedSubscriptionIsUnauthorizedClient) {
  const ApiClient lapsing = harness_->createClient({"write:codes"});
  harness_->service().auth().registry().setSubscription(lapsing.organisationId, auth::Subscription::Inactive);
  harness_->service().auth().refreshRegistryView();
  const HttpResult result = post("/oauth/token", basicAuthorization(lapsing.clientId, lapsing.secret), kForm,
                                 "grant_type=client_credentials");
  EXPECT_EQ(result.status, 400);
  EXPECT_EQ(result.body, R"({"error":"unauthorized_client"})");
  expectTokenErrorHeaders(result);
}

TEST_F(TokenEndpoint, UnreadableBodiesAreInvalidRequestAndClose) {
  RawConnection connection(*harness_);
  connection.send("POST /oauth/token HTTP/1.1\r\nHost: x\r\nAuthorization: " +
                  basicAuthorization(client_->clientId, client_->secret) +
                  "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1048576\r\n\r\n");
  const HttpResult result = connection.readResponse();
  EXPECT_EQ(result.status, 400);
  EXPECT_EQ(result.body, R"({"error":"invalid_request"})");
  EXPECT_EQ(result.header("connection"), "Close");
  EXPECT_EQ(result.header("cache-control"), "no-store");
  EXPECT_TRUE(connection.closedByServer());
}

}  // namespace
}  // namespace codepayload::server::testing
