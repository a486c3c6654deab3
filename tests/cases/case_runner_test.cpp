// Runs every case of tests/cases/*.json through PayloadEngine::generateJson and
// every case of tests/cases/parse/*.json through PayloadEngine::parseJson, and
// compares the response with the expected one, structurally: object keys in
// any order, arrays and strings exactly. Each case runs against both rule
// sources (the shipped baseline and a fresh parse of the newest GS1 release).
#include <gtest/gtest.h>

#include <Poco/Exception.h>
#include <Poco/JSON/Parser.h>

#include "tests/cases/case_loader.h"
#include "tests/cases/case_rules.h"
#include "tests/cases/json_compare.h"

namespace codepayload::cases {
namespace {

const std::vector<PayloadCase>& allCases() {
  static const std::vector<PayloadCase> cases = loadPayloadCases(CODEPAYLOAD_CASES_DIR);
  return cases;
}

std::string caseName(const ::testing::TestParamInfo<PayloadCase>& info) { return info.param.testName(); }

void expectResponse(const RuleSource& source, const PayloadCase& payloadCase) {
  ASSERT_TRUE(payloadCase.loadError.empty()) << payloadCase.loadError;
  ASSERT_NE(source.engine, nullptr) << source.error;
  SCOPED_TRACE(payloadCase.file + " / " + payloadCase.name + ": " + payloadCase.why);

  std::string out;
  RequestError error{};
  ASSERT_TRUE(runOperation(*source.engine, payloadCase.operation, payloadCase.requestText, out, error))
      << "the request was refused as a whole at \"" << error.path << "\": " << error.message
      << "\nrequest: " << payloadCase.requestText;

  Poco::Dynamic::Var expected;
  Poco::Dynamic::Var actual;
  Poco::JSON::Parser expectedParser;
  expected = expectedParser.parse(payloadCase.responseText);
  try {
    Poco::JSON::Parser actualParser;
    actual = actualParser.parse(out);
  } catch (const Poco::Exception& e) {
    FAIL() << "the engine wrote a response that is not JSON (" << e.displayText() << "):\n" << out;
  }
  std::string difference = firstDifference(expected, actual);
  EXPECT_TRUE(difference.empty()) << difference << "\nexpected:\n"
                                  << prettyJson(expected) << "\nactual:\n"
                                  << prettyJson(actual) << "\nrequest: " << payloadCase.requestText;
}

class BaselineRulesCase : public ::testing::TestWithParam<PayloadCase> {};
class ReleaseRulesCase : public ::testing::TestWithParam<PayloadCase> {};

TEST_P(BaselineRulesCase, GivesTheExpectedResponse) { expectResponse(baselineRuleSource(), GetParam()); }
TEST_P(ReleaseRulesCase, GivesTheExpectedResponse) { expectResponse(releaseRuleSource(), GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, BaselineRulesCase, ::testing::ValuesIn(allCases()), caseName);
INSTANTIATE_TEST_SUITE_P(Cases, ReleaseRulesCase, ::testing::ValuesIn(allCases()), caseName);

// The release source really is the newest file of shared/gs1, and both
// sources describe the same release, so the two runs check the same rules.
TEST(CaseRuleSources, BothSourcesBuildFromTheSameRelease) {
  const RuleSource& baseline = baselineRuleSource();
  const RuleSource& release = releaseRuleSource();
  ASSERT_NE(baseline.rules, nullptr) << baseline.error;
  ASSERT_NE(release.rules, nullptr) << release.error;
  std::filesystem::path newest = newestReleaseFile(CODEPAYLOAD_SHARED_GS1_DIR);
  EXPECT_EQ(release.rules->current()->release().sourceFile, newest.filename().string());
  EXPECT_EQ(baseline.rules->current()->release().name, release.rules->current()->release().name);
}

}  // namespace
}  // namespace codepayload::cases
