// POST /oauth/token over real HTTPS: the spec's error table, the headers of
// every answer, and the framing errors the HTTP layer answers itself.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <string>

#include "app/sqlite_registry.h"
#include "auth/auth_service.h"
#include "auth/token_issuer.h"
#include "tests/server/support/service_harness.h"

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
    std::string description;
  };
  const std::string good = basicAuthorization(client_->clientId, client_->secret);
  const std::string invalidClient =
      "client authentication failed: send the client id and secret with HTTP Basic authentication";
  const Row rows[] = {
      {"no grant_type", "/oauth/token", good, kForm, "", 400, "Bad Request", "invalid_request",
       "grant_type is missing: send grant_type=client_credentials"},
      {"empty grant_type", "/oauth/token", good, kForm, "grant_type=", 400, "Bad Request", "invalid_request",
       "grant_type is missing: send grant_type=client_credentials"},
      {"grant_type twice", "/oauth/token?grant_type=client_credentials", good, kForm, "grant_type=client_credentials",
       400, "Bad Request", "invalid_request", "grant_type must be sent once, in the body or in the query, not both"},
      {"password grant", "/oauth/token", good, kForm, "grant_type=password", 400, "Bad Request",
       "unsupported_grant_type", "the only grant_type is client_credentials"},
      {"JSON body", "/oauth/token", good, "application/json", R"({"grant_type":"client_credentials"})", 400,
       "Bad Request", "invalid_request",
       "the body must be application/x-www-form-urlencoded, e.g. grant_type=client_credentials (not JSON, not "
       "multipart)"},
      {"bad escape", "/oauth/token", good, kForm, "grant_type=client_credentials&x=%zz", 400, "Bad Request",
       "invalid_request", "the form has a '%' that is not followed by two hex digits"},
      {"credentials in the body and Basic", "/oauth/token", good, kForm,
       "grant_type=client_credentials&client_id=" + client_->clientId + "&client_secret=" + client_->secret, 400,
       "Bad Request", "invalid_request",
       "send the client id and secret only with HTTP Basic authentication, not also as client_id or client_secret "
       "parameters"},
      {"scope twice", "/oauth/token", good, kForm, "grant_type=client_credentials&scope=a&scope=b", 400, "Bad Request",
       "invalid_request", "scope must be sent at most once"},
      {"no Authorization", "/oauth/token", "", kForm, "grant_type=client_credentials", 401, "Unauthorized",
       "invalid_client", invalidClient},
      {"credentials in the body only", "/oauth/token", "", kForm,
       "grant_type=client_credentials&client_id=" + client_->clientId + "&client_secret=" + client_->secret, 401,
       "Unauthorized", "invalid_client", invalidClient},
      {"wrong secret", "/oauth/token", basicAuthorization(client_->clientId, client_->secret + "x"), kForm,
       "grant_type=client_credentials", 401, "Unauthorized", "invalid_client", invalidClient},
      {"unknown client", "/oauth/token", basicAuthorization("svc_client_000000000000000000000000", client_->secret),
       kForm, "grant_type=client_credentials", 401, "Unauthorized", "invalid_client", invalidClient},
      {"bearer instead of basic", "/oauth/token", "Bearer abc", kForm, "grant_type=client_credentials", 401,
       "Unauthorized", "invalid_client", invalidClient},
      {"body over the limit", "/oauth/token", good, kForm, "grant_type=client_credentials&x=" + std::string(9000, 'a'),
       400, "Bad Request", "invalid_request", "The body is larger than 8192 bytes."},
  };
  for (const Row& row : rows) {
    const HttpResult result = post(row.target, row.authorization, row.contentType, row.body);
    EXPECT_EQ(result.status, row.status) << row.name;
    EXPECT_EQ(result.reason, row.reason) << row.name;
    EXPECT_EQ(result.body, R"({"error":")" + row.error + R"(","error_description":")" + row.description + R"("})")
        << row.name;
    expectTokenErrorHeaders(result);
    if (row.status == 401) {
      EXPECT_EQ(result.header("www-authenticate"), R"(Basic realm="codepayload")") << row.name;
    }
  }
}

TEST_F(TokenEndpoint, OtherMethodsAre405WithADescription) {
  for (const std::string method : {"GET", "PUT", "DELETE"}) {
    const HttpResult result = harness_->request(HttpCall{method, "/oauth/token", {}, ""});
    EXPECT_EQ(result.status, 405) << method;
    EXPECT_EQ(result.reason, "Method Not Allowed");
    EXPECT_EQ(result.header("allow"), "POST");
    EXPECT_EQ(result.body, R"({"error":"invalid_request","error_description":"the token endpoint accepts only POST"})");
    expectTokenErrorHeaders(result);
  }
}

TEST_F(TokenEndpoint, LapsedSubscriptionIsUnauthorizedClient) {
  const ApiClient lapsing = harness_->createClient({"write:codes"});
  harness_->service().auth().registry().setSubscription(lapsing.organizationId, auth::Subscription::Inactive);
  harness_->service().auth().refreshRegistryView();
  const HttpResult result = post("/oauth/token", basicAuthorization(lapsing.clientId, lapsing.secret), kForm,
                                 "grant_type=client_credentials");
  EXPECT_EQ(result.status, 400);
  EXPECT_EQ(result.body,
            R"({"error":"unauthorized_client","error_description":"the organization's subscription does not cover )"
            R"(API clients"})");
  expectTokenErrorHeaders(result);
}

TEST_F(TokenEndpoint, UnreadableBodiesAreInvalidRequestAndClose) {
  RawConnection connection(*harness_);
  connection.send("POST /oauth/token HTTP/1.1\r\nHost: x\r\nAuthorization: " +
                  basicAuthorization(client_->clientId, client_->secret) +
                  "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1048576\r\n\r\n");
  const HttpResult result = connection.readResponse();
  EXPECT_EQ(result.status, 400);
  EXPECT_EQ(result.body,
            R"({"error":"invalid_request","error_description":"The body is larger than 8192 bytes."})");
  EXPECT_EQ(result.header("connection"), "Close");
  EXPECT_EQ(result.header("cache-control"), "no-store");
  EXPECT_TRUE(connection.closedByServer());
}

TEST_F(TokenEndpoint, BodiesWithoutLengthOrWithBadChunksAreInvalidRequestWithTheirReason) {
  const std::string head = "POST /oauth/token HTTP/1.1\r\nHost: x\r\nAuthorization: " +
                           basicAuthorization(client_->clientId, client_->secret) +
                           "\r\nContent-Type: application/x-www-form-urlencoded\r\n";
  const std::pair<std::string, std::string> rows[] = {
      {head + "\r\n", "Send a Content-Length or a chunked body."},
      {head + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", "The chunked body does not follow RFC 9112 §7.1."},
  };
  for (const auto& [request, description] : rows) {
    RawConnection connection(*harness_);
    connection.send(request);
    const HttpResult result = connection.readResponse();
    EXPECT_EQ(result.status, 400) << description;
    EXPECT_EQ(result.body, R"({"error":"invalid_request","error_description":")" + description + R"("})");
    EXPECT_EQ(result.header("cache-control"), "no-store");
  }
}

// Error policy, known departures 1 and 2 (D-U10): a registry that cannot be
// read is a 500 on both auth paths, and each is logged in one line.
TEST(RegistryFaults, AreAnswered500AndLoggedOnTheTokenEndpointAndTheBearerPath) {
  ServiceHarness harness;
  const ApiClient client = harness.createClient({"write:codes"});
  // A token the service signed for a client its registry view has never seen,
  // so the bearer check must read the registry.
  const auth::SigningKeySet keys(auth::SigningKey::load(harness.dataDir() / app::kSigningKeyFile));
  const auth::TokenIssuer issuer(keys, auth::TokenSettings{});
  const std::string unseen =
      issuer.issue(auth::TokenSubject{client.organizationId, "svc_client_000000000000000000000000", {"write:codes"}})
          .accessToken;

  sqlite3* database = nullptr;
  ASSERT_EQ(sqlite3_open_v2((harness.dataDir() / app::kRegistryDatabaseFile).c_str(), &database, SQLITE_OPEN_READWRITE,
                            nullptr),
            SQLITE_OK);
  // The client standing counter moved too (as by any change of a client,
  // D-T3), so the bearer check's refresh reads the registry.
  ASSERT_EQ(sqlite3_exec(database,
                         "UPDATE client_standing_version SET version = version + 1;"
                         " PRAGMA foreign_keys = OFF; DROP TABLE api_clients",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(database);

  // A wrong secret: the registry view does not vouch for it, so the endpoint
  // reads the registry (the right secret is answered from the view in the
  // second it was last checked, D-T6: TokenEndpointTest.ES05 covers that).
  const HttpResult token =
      harness.request(HttpCall{"POST",
                               "/oauth/token",
                               {{"Authorization", basicAuthorization(client.clientId, client.secret + "x")},
                                {"Content-Type", "application/x-www-form-urlencoded"}},
                               "grant_type=client_credentials"});
  EXPECT_EQ(token.status, 500);
  EXPECT_EQ(token.body,
            R"({"error":"server_error","error_description":"the server could not answer this request; it is safe )"
            R"(to retry"})");
  EXPECT_FALSE(token.has("www-authenticate"));

  const HttpResult codes = harness.codes(unseen, R"({"codes":[]})");
  EXPECT_EQ(codes.status, 500);
  EXPECT_EQ(codes.body,
            R"({"errors":[{"code":"ServerError","path":null,"message":"The server could not handle this request; )"
            R"(it is safe to retry."}]})");
  EXPECT_FALSE(codes.has("www-authenticate"));

  const std::vector<std::string> log = harness.serviceLog();
  EXPECT_EQ(std::count(log.begin(), log.end(),
                       "token request failed: registry database, reading a client: no such table: api_clients"),
            1);
  EXPECT_EQ(std::count_if(log.begin(), log.end(),
                          [](const std::string& line) {
                            return line.starts_with("bearer token check failed: registry database") &&
                                   line.find("api_clients") != std::string::npos;
                          }),
            1)
      << ::testing::PrintToString(log);
  for (const std::string& line : log) EXPECT_EQ(line.find(client.secret), std::string::npos) << line;
}

}  // namespace
}  // namespace codepayload::server::testing
