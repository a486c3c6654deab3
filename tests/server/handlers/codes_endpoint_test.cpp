// POST /codes over real HTTPS: every status of the spec's table, the error
// envelopes, media type negotiation, headers, and the access log lines.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "server/handlers/codes_handler.h"
#include "server/request_router.h"
#include "tests/server/support/service_harness.h"
#include "tests/server/support/sample_requests.h"

namespace codepayload::server::testing {
namespace {

constexpr const char* kMixedBatchResponse =
    R"({"codes":[)"
    R"({"reference":"ok-dl","barcodeText":"https://id.example.com/01/09506000134352/10/ABC1",)"
    R"("hri":"(01)09506000134352(10)ABC1"},)"
    R"({"reference":"2","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"}],)"
    R"("failures":[{"reference":"1","errors":[{"code":"Validation.Invalid.primaryKey","path":"primaryKey",)"
    R"("args":["01","linter","csum","incorrectCheckDigit","13","1"],)"
    R"("message":"AI 01: the check digit '3' (character 14 of '09506000134353') is wrong; the right check digit is 2."}]}]})";

constexpr const char* kInvalidJsonEnvelope =
    R"({"errors":[{"code":"InvalidJson","path":null,)"
    R"("message":"the body: not valid JSON at line 1, column 11: expected a value"}]})";
constexpr const char* kMissingFieldEnvelope = R"({"errors":[{"code":"MissingField","path":"codes.0.primaryKey",)"
                                              R"("message":"codes.0.primaryKey: required field is missing"}]})";
constexpr const char* kWrongTypeEnvelope = R"({"errors":[{"code":"WrongType","path":"codes.0.primaryKey.key",)"
                                           R"("message":"codes.0.primaryKey.key: must be a string"}]})";
constexpr const char* kWrongTypeAisEnvelope =
    R"({"errors":[{"code":"WrongType","path":"codes.1.ais","message":"codes.1.ais: must be an array"}]})";
constexpr const char* kTooManyItemsEnvelope =
    R"({"errors":[{"code":"TooManyItems","path":"codes","message":"codes: more than 3 definitions in one request"}]})";
constexpr const char* kInsufficientScopeEnvelope =
    R"({"errors":[{"code":"Forbidden","path":null,"message":"The access token lacks the scope write:codes."}]})";
constexpr const char* kLapsedEnvelope =
    R"({"errors":[{"code":"Forbidden","path":null,)"
    R"("message":"The organization's subscription no longer covers API clients."}]})";

std::string envelope(const std::string& code, const std::string& path, const std::string& message) {
  return R"({"errors":[{"code":")" + code + R"(","path":)" + (path.empty() ? "null" : "\"" + path + "\"") +
         R"(,"message":")" + message + R"("}]})";
}

class CodesEndpoint : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    harness_ = new ServiceHarness([](ServerConfig& config) {
      config.maxBodyBytes = 4096;
      config.maxItems = 3;
    });
    writer_ = new ApiClient(harness_->createClient({"write:codes"}));
    writerToken_ = new std::string(harness_->token(*writer_));
  }
  static void TearDownTestSuite() {
    delete writerToken_;
    delete writer_;
    delete harness_;
  }

  static ServiceHarness* harness_;
  static ApiClient* writer_;
  static std::string* writerToken_;
};

ServiceHarness* CodesEndpoint::harness_ = nullptr;
ApiClient* CodesEndpoint::writer_ = nullptr;
std::string* CodesEndpoint::writerToken_ = nullptr;

TEST_F(CodesEndpoint, MixedBatchIs200WithCodesAndFailures) {
  const HttpResult result = harness_->codes(*writerToken_, kMixedBatch);
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.reason, "OK");
  EXPECT_EQ(result.body, kMixedBatchResponse);
  EXPECT_EQ(result.header("content-type"), "application/vnd.codepayload.public.v1+json");
  EXPECT_EQ(result.header("content-length"), std::to_string(result.body.size()));
  EXPECT_EQ(result.header("x-content-type-options"), "nosniff");
  EXPECT_FALSE(result.has("server"));
}

TEST_F(CodesEndpoint, EveryItemRejectedIsStill200) {
  const HttpResult result = harness_->codes(
      *writerToken_, R"({"codes":[{"primaryKey":{"key":"99","value":"1"},"ais":[],"extensionParameters":[]}]})");
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(
      result.body,
      R"({"codes":[],"failures":[{"reference":"0","errors":[{"code":"Validation.Invalid.primaryKey",)"
      R"("path":"primaryKey","args":["99","notPrimaryKey"],"message":"AI 99 cannot be the primary key: use a GS1 )"
      R"(identification key (such as 01, the GTIN) as primaryKey and give AI 99 in ais."}]}]})");
}

TEST_F(CodesEndpoint, AcceptNegotiationChoosesTheResponseType) {
  struct Row {
    std::string accept;
    int status;
    std::string contentType;
  };
  const Row rows[] = {
      {"application/json", 200, "application/json"},
      {"application/vnd.codepayload.public.v1+json", 200, "application/vnd.codepayload.public.v1+json"},
      {"*/*", 200, "application/vnd.codepayload.public.v1+json"},
      {"application/*;q=0.5, application/json;q=0.9", 200, "application/json"},
      {"text/html", 406, "application/json"},
      {"application/json;q=0, application/vnd.codepayload.public.v1+json;q=0", 406, "application/json"},
  };
  for (const Row& row : rows) {
    const HttpResult result = harness_->codes(*writerToken_, kOneItem, {{"Accept", row.accept}});
    EXPECT_EQ(result.status, row.status) << row.accept;
    EXPECT_EQ(result.header("content-type"), row.contentType) << row.accept;
    if (row.status == 200) {
      EXPECT_EQ(result.body, kOneItemResponse) << row.accept;
    } else {
      EXPECT_EQ(result.reason, "Not Acceptable");
      EXPECT_EQ(result.body, envelope("NotAcceptable", "",
                                      "This endpoint produces application/vnd.codepayload.public.v1+json or "
                                      "application/json only."));
    }
  }
  // Several Accept headers count as one list.
  const HttpResult joined =
      harness_->codes(*writerToken_, kOneItem, {{"Accept", "text/html"}, {"Accept", "application/json;q=0.5"}});
  EXPECT_EQ(joined.status, 200);
  EXPECT_EQ(joined.header("content-type"), "application/json");
}

TEST_F(CodesEndpoint, RequestContentTypes) {
  const std::pair<std::string, int> rows[] = {
      {"application/json", 200},
      {"application/json; charset=utf-8", 200},
      {"application/vnd.codepayload.public.v1+json", 200},
      {"text/plain", 415},
      {"application/x-www-form-urlencoded", 415},
      {"application/json; charset=iso-8859-1", 415},
  };
  for (const auto& [contentType, status] : rows) {
    const HttpResult result = harness_->request(HttpCall{
        "POST", "/codes", {{"Authorization", "Bearer " + *writerToken_}, {"Content-Type", contentType}}, kOneItem});
    EXPECT_EQ(result.status, status) << contentType;
    if (status == 415) {
      EXPECT_EQ(result.reason, "Unsupported Media Type");
      EXPECT_EQ(result.body, envelope("UnsupportedMediaType", "",
                                      "Send the body as application/vnd.codepayload.public.v1+json or "
                                      "application/json."));
    }
  }
  const HttpResult noType =
      harness_->request(HttpCall{"POST", "/codes", {{"Authorization", "Bearer " + *writerToken_}}, kOneItem});
  EXPECT_EQ(noType.status, 415);
}

TEST_F(CodesEndpoint, BadBodiesAre400WithThePath) {
  struct Row {
    std::string body;
    std::string expected;
  };
  const Row rows[] = {
      {R"({"codes":[)", kInvalidJsonEnvelope},
      {R"({"codes":[{"ais":[],"extensionParameters":[]}]})", kMissingFieldEnvelope},
      {R"({"codes":[{"primaryKey":{"key":1,"value":"1"},"ais":[],"extensionParameters":[]}]})", kWrongTypeEnvelope},
      {R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[]},)"
       R"({"primaryKey":{"key":"01","value":"1"},"ais":{},"extensionParameters":[]}]})",
       kWrongTypeAisEnvelope},
  };
  for (const Row& row : rows) {
    const HttpResult result = harness_->codes(*writerToken_, row.body);
    EXPECT_EQ(result.status, 400) << row.body;
    EXPECT_EQ(result.reason, "Bad Request");
    EXPECT_EQ(result.header("content-type"), "application/json");
    EXPECT_EQ(result.body, row.expected) << row.body;
  }
}

TEST_F(CodesEndpoint, TooManyItemsIs413) {
  const std::string item = R"({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]})";
  const HttpResult result =
      harness_->codes(*writerToken_, R"({"codes":[)" + item + "," + item + "," + item + "," + item + "]}");
  EXPECT_EQ(result.status, 413);
  EXPECT_EQ(result.reason, "Content Too Large");
  EXPECT_EQ(result.body, kTooManyItemsEnvelope);
}

TEST_F(CodesEndpoint, BodyOverTheLimitIs413AndCloses) {
  const HttpResult result = harness_->codes(*writerToken_, std::string(4097, ' '));
  EXPECT_EQ(result.status, 413);
  EXPECT_EQ(result.header("connection"), "Close");
  EXPECT_EQ(result.body, envelope("BodyTooLarge", "", "The body is larger than 4096 bytes."));
}

TEST_F(CodesEndpoint, MissingMalformedAndForeignCredentialsAre401) {
  struct Row {
    std::vector<std::pair<std::string, std::string>> headers;
    std::string challenge;
  };
  const std::string plain = R"(Bearer realm="codepayload")";
  const std::string invalid = R"(Bearer realm="codepayload", error="invalid_token")";
  const Row rows[] = {
      {{}, plain},
      {{{"Authorization", basicAuthorization(writer_->clientId, writer_->secret)}}, plain},
      {{{"Authorization", "Bearer"}}, invalid},
      {{{"Authorization", "Bearer not-a-token"}}, invalid},
      {{{"Authorization", "Bearer a.b.c"}}, invalid},
      {{{"Authorization", "Bearer " + *writerToken_ + "x"}}, invalid},
  };
  for (const Row& row : rows) {
    HttpCall call{"POST", "/codes", row.headers, kOneItem};
    call.headers.emplace_back("Content-Type", "application/json");
    const HttpResult result = harness_->request(call);
    EXPECT_EQ(result.status, 401) << row.challenge;
    EXPECT_EQ(result.reason, "Unauthorized");
    EXPECT_EQ(result.header("www-authenticate"), row.challenge);
    EXPECT_EQ(result.header("content-type"), "application/json");
    const auto parsed = Poco::JSON::Parser().parse(result.body).extract<Poco::JSON::Object::Ptr>();
    const auto error = parsed->getArray("errors")->getObject(0);
    EXPECT_EQ(error->getValue<std::string>("code"), "Unauthorized");
    EXPECT_TRUE(error->isNull("path"));
    EXPECT_EQ(result.body.find(*writerToken_), std::string::npos);
  }
  // Two Authorization lines are refused with the head, before any token is
  // looked at (RFC 6750 §3.1: a malformed request is a 400).
  const HttpResult twice = harness_->request(HttpCall{"POST",
                                                      "/codes",
                                                      {{"Authorization", "Bearer " + *writerToken_},
                                                       {"Authorization", "Bearer " + *writerToken_},
                                                       {"Content-Type", "application/json"}},
                                                      kOneItem});
  EXPECT_EQ(twice.status, 400);
  EXPECT_FALSE(twice.has("www-authenticate"));
  EXPECT_EQ(twice.body, envelope("InvalidHeader", "", "Send one Authorization header, not several."));
}

TEST_F(CodesEndpoint, LowerCaseBearerSchemeIsAccepted) {
  const HttpResult result =
      harness_->request(HttpCall{"POST",
                                 "/codes",
                                 {{"Authorization", "bearer " + *writerToken_}, {"Content-Type", "application/json"}},
                                 kOneItem});
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.body, kOneItemResponse);
}

TEST_F(CodesEndpoint, MissingScopeAndLapsedSubscriptionAre403) {
  const ApiClient reader = harness_->createClient({"read:codes"});
  const HttpResult noScope = harness_->codes(harness_->token(reader), kOneItem);
  EXPECT_EQ(noScope.status, 403);
  EXPECT_EQ(noScope.reason, "Forbidden");
  EXPECT_EQ(noScope.header("www-authenticate"),
            R"(Bearer realm="codepayload", error="insufficient_scope", scope="write:codes")");
  EXPECT_EQ(noScope.body, kInsufficientScopeEnvelope);

  const ApiClient lapsing = harness_->createClient({"write:codes"});
  const std::string token = harness_->token(lapsing);
  EXPECT_EQ(harness_->codes(token, kOneItem).status, 200);
  harness_->service().auth().registry().setSubscription(lapsing.organizationId, auth::Subscription::Inactive);
  harness_->service().auth().refreshRegistryView();
  const HttpResult lapsed = harness_->codes(token, kOneItem);
  EXPECT_EQ(lapsed.status, 403);
  EXPECT_EQ(lapsed.header("www-authenticate"), R"(Bearer realm="codepayload", error="insufficient_scope", )"
                                               R"(error_description="subscription does not cover API clients")");
  EXPECT_EQ(lapsed.body, kLapsedEnvelope);
}

TEST_F(CodesEndpoint, UnknownPathIs404AndWrongMethodIs405) {
  const HttpResult notFound = harness_->request(HttpCall{"GET", "/nowhere?x=1", {}, ""});
  EXPECT_EQ(notFound.status, 404);
  EXPECT_EQ(notFound.reason, "Not Found");
  EXPECT_EQ(notFound.body, envelope("NotFound", "", "There is no resource at this path."));
  EXPECT_EQ(harness_->request(HttpCall{"POST", "/codes/", {}, ""}).status, 404);

  struct Row {
    std::string method;
    std::string target;
    std::string allow;
  };
  const Row rows[] = {{"GET", "/codes", "POST"},
                      {"HEAD", "/codes", "POST"},
                      {"PUT", "/codes", "POST"},
                      {"DELETE", "/codes", "POST"},
                      {"POST", "/healthz", "GET, HEAD"},
                      {"OPTIONS", "/healthz/live", "GET, HEAD"},
                      {"POST", "/.well-known/jwks.json", "GET, HEAD"}};
  for (const Row& row : rows) {
    const HttpResult result = harness_->request(HttpCall{row.method, row.target, {}, ""});
    EXPECT_EQ(result.status, 405) << row.method << " " << row.target;
    EXPECT_EQ(result.reason, "Method Not Allowed");
    EXPECT_EQ(result.header("allow"), row.allow);
    EXPECT_EQ(result.body, row.method == "HEAD"
                               ? ""
                               : envelope("MethodNotAllowed", "", "This resource only allows " + row.allow + "."));
  }
}

TEST_F(CodesEndpoint, HealthAndJwks) {
  const HttpResult health = harness_->request(HttpCall{"GET", "/healthz", {}, ""});
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, R"({"status":"ok","release":"2026-01-27"})");
  EXPECT_EQ(health.header("content-type"), "application/json");

  const HttpResult jwks = harness_->request(HttpCall{"GET", "/.well-known/jwks.json", {}, ""});
  EXPECT_EQ(jwks.status, 200);
  EXPECT_EQ(jwks.header("content-type"), "application/jwk-set+json");
  EXPECT_EQ(jwks.body, harness_->service().auth().jwksJson());
  const auto keys = Poco::JSON::Parser().parse(jwks.body).extract<Poco::JSON::Object::Ptr>()->getArray("keys");
  ASSERT_EQ(keys->size(), 1u);
  EXPECT_EQ(keys->getObject(0)->getValue<std::string>("alg"), "ES256");  // a new data directory signs ES256
  EXPECT_FALSE(keys->getObject(0)->has("d"));
}

TEST_F(CodesEndpoint, AccessLogHasOneSafeLinePerRequest) {
  harness_->codes(*writerToken_, kMixedBatch);
  harness_->request(HttpCall{"PATCH", "/nowhere?secret=x", {}, ""});
  // Lines are written once their responses are out, by the worker threads:
  // wait for both, and find them by content.
  Poco::JSON::Object::Ptr codesLine;
  Poco::JSON::Object::Ptr notFoundLine;
  for (int attempt = 0; attempt < 100 && !(codesLine && notFoundLine); ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (const std::string& line : harness_->accessLogLines()) {
      EXPECT_EQ(line.find("secret"), std::string::npos) << line;
      const auto parsed = Poco::JSON::Parser().parse(line).extract<Poco::JSON::Object::Ptr>();
      if (parsed->getValue<std::string>("method") == "PATCH") notFoundLine = parsed;
      if (parsed->has("codes") && parsed->getValue<int>("codes") == 2) codesLine = parsed;
    }
  }
  ASSERT_TRUE(codesLine);
  ASSERT_TRUE(notFoundLine);
  EXPECT_EQ(codesLine->getValue<std::string>("method"), "POST");
  EXPECT_EQ(codesLine->getValue<std::string>("path"), "/codes");
  EXPECT_EQ(codesLine->getValue<int>("status"), 200);
  EXPECT_EQ(codesLine->getValue<std::size_t>("bytes"), std::string(kMixedBatchResponse).size());
  EXPECT_EQ(codesLine->getValue<std::string>("clientId"), writer_->clientId);
  EXPECT_EQ(codesLine->getValue<int>("failures"), 1);
  EXPECT_TRUE(codesLine->getValue<std::string>("client").starts_with("127.0.0.1:"));
  EXPECT_GE(codesLine->getValue<std::int64_t>("durationUs"), 0);
  EXPECT_EQ(codesLine->getValue<std::string>("time").size(), 24u);
  EXPECT_EQ(codesLine->getValue<std::string>("requestId").size(), 32u);  // generated (D-P10)
  EXPECT_EQ(codesLine->size(), 11u);

  EXPECT_EQ(notFoundLine->getValue<int>("status"), 404);
  EXPECT_TRUE(notFoundLine->isNull("path"));
  EXPECT_TRUE(notFoundLine->isNull("clientId"));
  EXPECT_FALSE(notFoundLine->has("codes"));
  EXPECT_EQ(notFoundLine->getValue<std::string>("requestId").size(), 32u);
  EXPECT_EQ(notFoundLine->size(), 9u);
}

TEST(RequestPath, OriginAndAbsoluteForm) {
  EXPECT_EQ(requestPath("/codes?x=1"), "/codes");
  EXPECT_EQ(requestPath("/codes#f"), "/codes");
  EXPECT_EQ(requestPath("https://localhost:8443/oauth/token?grant_type=x"), "/oauth/token");
  EXPECT_EQ(requestPath("https://localhost:8443"), "/");
  EXPECT_EQ(requestPath("*"), "");
}

}  // namespace
}  // namespace codepayload::server::testing
