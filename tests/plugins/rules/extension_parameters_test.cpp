// extensionParameters (plugins/rules/rule_extension_parameters.cpp): only with
// a stem; keys non-empty, not linkType or context, not all digits, unique;
// keys and values of query-literal characters.
#include <gtest/gtest.h>

#include "engine/validation_codes.h"
#include "tests/plugins/rules/rule_test_support.h"

namespace codepayload::testing {
namespace {

const TestAi kGtinKey{"01", "09506000134352"};

Errors parameterErrors(std::vector<TestAi> parameters) {
  TestItem item(
      {.primaryKey = kGtinKey, .extensionParameters = std::move(parameters), .digitalLinkStem = std::string(kStem)});
  return item.run("extensionParameters");
}

ValidationError parameterError(std::size_t index, const std::string& key, const char* reason) {
  return error(codes::extensionParameter(index), "extensionParameters." + std::to_string(index), {key, reason});
}

TEST(ExtensionParametersRule, DescribesItselfInThePipeline) {
  const ModuleState& state = shippedModuleState("extensionParameters");
  EXPECT_EQ(state.kind, "cpp");
  EXPECT_TRUE(state.enabled);
  EXPECT_EQ(state.reason, "extension parameters: only with a stem; keys and values");
}

TEST(ExtensionParametersRule, NoParametersNothingToCheck) {
  TestItem item({.primaryKey = kGtinKey});
  EXPECT_EQ(item.run("extensionParameters"), Errors{});
}

TEST(ExtensionParametersRule, ValidParametersPass) {
  EXPECT_EQ(parameterErrors({{"campaign", "spring-2026"},
                             {"a1", ""},
                             {"1a", "!$'()*,;:@/?"},
                             {"AZaz09-._~", "x"},
                             {"linktype", "different case"}}),
            (Errors{parameterError(4, "linktype", "valueCharacters")}));
  EXPECT_EQ(parameterErrors({{"campaign", "spring-2026"}, {"a1", ""}, {"1a", "!$'()*,;:@/?"}, {"AZaz09-._~", "x"}}),
            Errors{});
}

TEST(ExtensionParametersRule, KeyFaults) {
  EXPECT_EQ(parameterErrors({{"", "v"},
                             {"linkType", "v"},
                             {"context", "v"},
                             {"0", "v"},
                             {"123", "v"},
                             {"a b", "v"},
                             {"a=b", "v"},
                             {"k\xC3\xA9", "v"}}),
            (Errors{parameterError(0, "", "emptyKey"), parameterError(1, "linkType", "reservedKey"),
                    parameterError(2, "context", "reservedKey"), parameterError(3, "0", "numericKey"),
                    parameterError(4, "123", "numericKey"), parameterError(5, "a b", "keyCharacters"),
                    parameterError(6, "a=b", "keyCharacters"), parameterError(7, "k\xC3\xA9", "keyCharacters")}));
}

TEST(ExtensionParametersRule, ValueFaults) {
  EXPECT_EQ(parameterErrors({{"a", "x y"}, {"b", "x&y"}, {"c", "x=y"}, {"d", "x#y"}, {"e", "x%20"}, {"f", "x+y"}}),
            (Errors{parameterError(0, "a", "valueCharacters"), parameterError(1, "b", "valueCharacters"),
                    parameterError(2, "c", "valueCharacters"), parameterError(3, "d", "valueCharacters"),
                    parameterError(4, "e", "valueCharacters"), parameterError(5, "f", "valueCharacters")}));
}

TEST(ExtensionParametersRule, KeyAndValueFaultsOfOneParameterAreBothReported) {
  EXPECT_EQ(parameterErrors({{"123", "a b"}}),
            (Errors{parameterError(0, "123", "numericKey"), parameterError(0, "123", "valueCharacters")}));
}

TEST(ExtensionParametersRule, RepeatedKeyIsReportedAtTheRepeat) {
  EXPECT_EQ(parameterErrors({{"a", "1"}, {"b", "2"}, {"a", "3"}, {"a", "4"}}),
            (Errors{error(codes::extensionParameters(), "extensionParameters.2", {"a", "duplicateKey"}),
                    error(codes::extensionParameters(), "extensionParameters.3", {"a", "duplicateKey"})}));
  // A repeated faulty key has both faults.
  EXPECT_EQ(parameterErrors({{"linkType", "1"}, {"linkType", "2"}}),
            (Errors{parameterError(0, "linkType", "reservedKey"), parameterError(1, "linkType", "reservedKey"),
                    error(codes::extensionParameters(), "extensionParameters.1", {"linkType", "duplicateKey"})}));
}

TEST(ExtensionParametersRule, WithoutStemTheParametersAreStillChecked) {
  TestItem item({.primaryKey = kGtinKey, .extensionParameters = {{"ok", "1"}, {"", "x y"}}});
  EXPECT_EQ(item.run("extensionParameters"),
            (Errors{error(codes::extensionParameters(), "extensionParameters", {"requiresDigitalLinkStem"}),
                    parameterError(1, "", "emptyKey"), parameterError(1, "", "valueCharacters")}));
}

}  // namespace
}  // namespace codepayload::testing
