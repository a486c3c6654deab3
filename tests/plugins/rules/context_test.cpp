// context (plugins/rules/rule_context.cpp): only with a stem, and made of
// query-literal characters (unreserved ASCII and ! $ ' ( ) * , ; : @ / ?).
#include <gtest/gtest.h>

#include "engine/validation_codes.h"
#include "tests/plugins/rules/rule_test_support.h"

namespace codepayload::testing {
namespace {

const TestAi kGtinKey{"01", "09506000134352"};

Errors contextErrors(const std::string& context) {
  TestItem item({.primaryKey = kGtinKey, .digitalLinkStem = std::string(kStem), .context = context});
  return item.run("context");
}

TEST(ContextRule, DescribesItselfInThePipeline) {
  const ModuleState& state = shippedModuleState("context");
  EXPECT_EQ(state.kind, "cpp");
  EXPECT_TRUE(state.enabled);
  EXPECT_EQ(state.reason, "context: only with a stem, query-literal characters");
}

TEST(ContextRule, AbsentContextNothingToCheck) {
  TestItem item({.primaryKey = kGtinKey});
  EXPECT_EQ(item.run("context"), Errors{});
}

TEST(ContextRule, QueryLiteralCharactersPass) {
  for (const char* context : {"", "dlpkey", "AZaz09-._~", "!$'()*,;:@/?", "en-GB/retail"}) {
    EXPECT_EQ(contextErrors(context), Errors{}) << context;
  }
}

TEST(ContextRule, OtherCharactersAreRefused) {
  for (const std::string& context : std::vector<std::string>{"a b", "a&b", "a=b", "a+b", "a#b", "a%20b", "[x]", "\"x\"",
                                                             "caf\xC3\xA9", std::string("a\0b", 3), "a\tb"}) {
    EXPECT_EQ(contextErrors(context), (Errors{error(codes::context(), "context", {"characters"})})) << context;
  }
}

TEST(ContextRule, NeedsAStemWhateverItsCharacters) {
  for (const char* context : {"retail", "a b", ""}) {
    TestItem item({.primaryKey = kGtinKey, .context = context});
    EXPECT_EQ(item.run("context"), (Errors{error(codes::context(), "context", {"requiresDigitalLinkStem"})}))
        << context;
  }
}

}  // namespace
}  // namespace codepayload::testing
