// The JSON writer's escaping in responses (the escaping itself: tests/common)
// and the request parser's refusals.
#include <gtest/gtest.h>

#include "engine/json_writer.h"
#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

TEST(JsonWriter, ReferencesAreEscapedInResponses) {
  EXPECT_EQ(
      runRequest(
          newestSnapshot(),
          R"J({"codes":[{"reference":"a\"\n\u00e9","primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]}]})J"),
      "{\"codes\":[{\"reference\":\"a\\\"\\n\xc3\xa9\",\"barcodeText\":\"(01)09506000134352\",\"hri\":\"(01)"
      "09506000134352\"}],\"failures\":[]}");
}

TEST(RequestParser, RefusesWhatIsNotACodesRequestWithThePath) {
  auto rules = newestSnapshot();
  EXPECT_EQ(runRequest(rules, "{"),
            "RequestError : the body: not valid JSON at line 1, column 2: expected a field name in quotes");
  EXPECT_EQ(runRequest(rules, "[]"), "RequestError : the body: must be a JSON object");
  EXPECT_EQ(runRequest(rules, "{}"), "RequestError codes: codes: required field is missing");
  EXPECT_EQ(runRequest(rules, R"J({"codes":{}})J"), "RequestError codes: codes: must be an array");
  EXPECT_EQ(runRequest(rules, R"J({"codes":[{"ais":[],"extensionParameters":[]}]})J"),
            "RequestError codes.0.primaryKey: codes.0.primaryKey: required field is missing");
  EXPECT_EQ(
      runRequest(rules, R"J({"codes":[{"primaryKey":{"key":1,"value":"x"},"ais":[],"extensionParameters":[]}]})J"),
      "RequestError codes.0.primaryKey.key: codes.0.primaryKey.key: must be a string");
  EXPECT_EQ(
      runRequest(
          rules,
          R"J({"codes":[{"primaryKey":{"key":"01","value":"x"},"ais":[{"key":"10"}],"extensionParameters":[]}]})J"),
      "RequestError codes.0.ais.0.value: codes.0.ais.0.value: required field is missing");
  EXPECT_EQ(
      runRequest(
          rules,
          R"J({"codes":[{"primaryKey":{"key":"01","value":"x"},"ais":[],"extensionParameters":[],"digitalLinkstem":"x"}]})J"),
      "RequestError codes.0.digitalLinkstem: codes.0.digitalLinkstem: unknown field");
  EXPECT_EQ(runRequest(rules, R"J({"codes":[],"codes":[]})J"), "RequestError codes: codes: field given more than once");
  EXPECT_EQ(runRequest(rules, R"J({"codes":[]} x)J"),
            "RequestError : the body: not valid JSON at line 1, column 14: expected the end of the text");
  EXPECT_EQ(runRequest(rules, "{\"codes\":[{\"reference\":\"\xff\"}]}"),
            "RequestError : the body: not valid JSON at line 1, column 25: expected UTF-8 text");
  // Lines and columns as an editor shows them: characters, not bytes, from 1.
  EXPECT_EQ(runRequest(rules, "{\"codes\": [\n  {\"reference\": \"\xc3\xa9\xc3\xa9\" \"primaryKey\": {}}\n]}"),
            "RequestError codes.0: codes.0: not valid JSON at line 2, column 22: expected ',' or '}'");
}

}  // namespace
}  // namespace codepayload::testing

namespace codepayload::testing {
namespace {

TEST(PayloadEngine, CountsAcceptedAndRejectedItems) {
  SnapshotHolder holder(newestSnapshot());
  PayloadEngine engine(holder);
  std::string out;
  RequestError error{};
  GenerateCounts counts{7, 7};
  ASSERT_TRUE(engine.generateJson(
      R"J({"codes":[{"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]},)J"
      R"J({"primaryKey":{"key":"01","value":"09506000134353"},"ais":[],"extensionParameters":[]},)J"
      R"J({"primaryKey":{"key":"7777","value":"1"},"ais":[],"extensionParameters":[]}]})J",
      out, error, &counts));
  EXPECT_EQ(counts.codes, 1u);
  EXPECT_EQ(counts.failures, 2u);
  ASSERT_TRUE(engine.generateJson(R"J({"codes":[]})J", out, error, &counts));
  EXPECT_EQ(counts.codes, 0u);
  EXPECT_EQ(counts.failures, 0u);
}

// Which items were accepted, by position, so that a caller can answer in the
// request's order even when references repeat.
TEST(PayloadEngine, SaysWhichItemsWereAcceptedInTheRequestsOrder) {
  SnapshotHolder holder(newestSnapshot());
  PayloadEngine engine(holder);
  std::string out;
  RequestError error{};
  std::vector<bool> accepted{true};
  ASSERT_TRUE(engine.generateJson(
      R"J({"codes":[{"reference":"x","primaryKey":{"key":"01","value":"09506000134353"},"ais":[],)J"
      R"J("extensionParameters":[]},)J"
      R"J({"reference":"x","primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]},)J"
      R"J({"reference":"x","primaryKey":{"key":"7777","value":"1"},"ais":[],"extensionParameters":[]}]})J",
      out, error, nullptr, &accepted));
  EXPECT_EQ(accepted, (std::vector<bool>{false, true, false}));
  ASSERT_TRUE(engine.parseJson(R"J({"codes":[{"data":"(01)09506000134352"},{"data":"(01)1"},{"data":"]d2"}]})J", out,
                               error, nullptr, &accepted));
  EXPECT_EQ(accepted, (std::vector<bool>{true, false, false}));
  ASSERT_TRUE(engine.parseJson(R"J({"codes":[]})J", out, error, nullptr, &accepted));
  EXPECT_TRUE(accepted.empty());
}

}  // namespace
}  // namespace codepayload::testing
