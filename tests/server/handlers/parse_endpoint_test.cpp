// POST /codes/parse over real HTTPS: its own scope (read:codes, which
// write:codes does not grant and which grants nothing else), the answer, and
// the same request checks as POST /codes.
#include <gtest/gtest.h>

#include <string>

#include "tests/server/support/service_harness.h"

namespace codepayload::server::testing {
namespace {

constexpr const char* kOnePayload = R"({"codes":[{"reference":"line","data":"]d2010950600013435210ABC"}]})";
constexpr const char* kOnePayloadResponse =
    R"({"parsed":[{"reference":"line","form":"scannerData","symbologyIdentifier":"]d2",)"
    R"("definition":{"primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"10","value":"ABC"}],)"
    R"("extensionParameters":[],"digitalLinkStem":null,"linkType":null,"context":null},)"
    R"("elementString":"(01)09506000134352(10)ABC","hri":"(01)09506000134352(10)ABC","digitalLink":null}],)"
    R"("failures":[]})";
constexpr const char* kOneItem =
    R"({"codes":[{"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]}]})";

class ParseEndpoint : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    harness_ = new ServiceHarness([](ServerConfig& config) { config.maxItems = 2; });
    readerToken_ = new std::string(harness_->token(harness_->createClient({"read:codes"})));
    writerToken_ = new std::string(harness_->token(harness_->createClient({"write:codes"})));
  }
  static void TearDownTestSuite() {
    delete writerToken_;
    delete readerToken_;
    delete harness_;
  }

  static ServiceHarness* harness_;
  static std::string* readerToken_;
  static std::string* writerToken_;
};

ServiceHarness* ParseEndpoint::harness_ = nullptr;
std::string* ParseEndpoint::readerToken_ = nullptr;
std::string* ParseEndpoint::writerToken_ = nullptr;

TEST_F(ParseEndpoint, ReadsAPayloadWithAReadCodesToken) {
  const HttpResult result = harness_->parse(*readerToken_, kOnePayload);
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.body, kOnePayloadResponse);
  EXPECT_EQ(result.header("content-type"), "application/vnd.codepayload.public.v1+json");
  EXPECT_EQ(result.header("x-content-type-options"), "nosniff");
}

TEST_F(ParseEndpoint, EachScopeGrantsItsOwnEndpointOnly) {
  const HttpResult writerParses = harness_->parse(*writerToken_, kOnePayload);
  EXPECT_EQ(writerParses.status, 403);
  EXPECT_EQ(writerParses.header("www-authenticate"),
            R"(Bearer realm="codepayload", error="insufficient_scope", scope="read:codes")");
  EXPECT_EQ(writerParses.body,
            R"({"errors":[{"code":"Forbidden","path":null,"message":"The access token lacks the scope read:codes."}]})");

  const HttpResult readerGenerates = harness_->codes(*readerToken_, kOneItem);
  EXPECT_EQ(readerGenerates.status, 403);
  EXPECT_EQ(readerGenerates.header("www-authenticate"),
            R"(Bearer realm="codepayload", error="insufficient_scope", scope="write:codes")");

  const std::string both = harness_->token(harness_->createClient({"read:codes", "write:codes"}));
  EXPECT_EQ(harness_->parse(both, kOnePayload).body, kOnePayloadResponse);
  EXPECT_EQ(harness_->codes(both, kOneItem).status, 200);

  EXPECT_EQ(harness_->parse("not.a.token", kOnePayload).status, 401);
}

TEST_F(ParseEndpoint, RefusesABodyThatIsNoParseRequest) {
  const HttpResult missing = harness_->parse(*readerToken_, R"({"codes":[{"reference":"a"}]})");
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.body, R"({"errors":[{"code":"MissingField","path":"codes.0.data",)"
                          R"("message":"codes.0.data: required field is missing"}]})");
  const HttpResult definition = harness_->parse(*readerToken_, kOneItem);
  EXPECT_EQ(definition.status, 400);
  EXPECT_EQ(definition.body, R"({"errors":[{"code":"WrongType","path":"codes.0.primaryKey",)"
                             R"("message":"codes.0.primaryKey: unknown field"}]})");
  const HttpResult tooMany =
      harness_->parse(*readerToken_, R"({"codes":[{"data":"a"},{"data":"b"},{"data":"c"}]})");
  EXPECT_EQ(tooMany.status, 413);
  EXPECT_EQ(tooMany.body, R"({"errors":[{"code":"TooManyItems","path":"codes",)"
                          R"("message":"codes: more than 2 payloads in one request"}]})");
  EXPECT_EQ(harness_->parse(*readerToken_, kOnePayload, {{"Accept", "text/html"}}).status, 406);
}

TEST_F(ParseEndpoint, AnUnreadablePayloadIsAFailureNotAnError) {
  const HttpResult result = harness_->parse(*readerToken_, R"({"codes":[{"data":"hello"}]})");
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.body,
            R"({"parsed":[],"failures":[{"reference":"0","form":null,"symbologyIdentifier":null,"definition":null,)"
            R"("errors":[{"code":"Validation.Invalid.data","path":"data","args":["unrecognised","h"],)"
            R"("message":"Character 1 ('h') begins none of the forms a payload takes: a Digital Link URI )"
            R"((http:// or https://), an element string ('(') or scanner data (an AI's digits, after an AIM )"
            R"(symbology identifier such as ]d2).","offset":0,"length":1}]}]})");
}

}  // namespace
}  // namespace codepayload::server::testing
