// The registry of built-in rule modules (plugins/rules/rule_table.cpp) and the
// shipped pipeline that names them.
#include <gtest/gtest.h>

#include "plugins/rules/rule_modules.h"
#include "tests/plugins/rules/rule_test_support.h"

namespace codepayload::testing {
namespace {

const std::vector<std::string> kBuiltinModules{"aiFormat",        "aiKeys",
                                               "context",         "digitalLinkPlacement",
                                               "digitalLinkStem", "extensionParameters",
                                               "linkType",        "normalisation",
                                               "primaryKey",      "relations"};

TEST(RuleTable, FindsEveryModuleByItsExactName) {
  for (const std::string& name : kBuiltinModules) {
    const RuleModuleEntry* entry = rules::builtinRuleModules().find(name);
    ASSERT_NE(entry, nullptr) << name;
    EXPECT_EQ(entry->name, name);
    EXPECT_FALSE(entry->summary.empty()) << name;
    EXPECT_NE(entry->create(shippedModuleSettings(name)).module, nullptr) << name;
  }
  for (const char* name :
       {"", "PrimaryKey", "primarykey", "primaryKey ", "lua:gcp_allowlist", "gcp_allowlist", "aiformat", "zzz", "a"}) {
    EXPECT_EQ(rules::builtinRuleModules().find(name), nullptr) << name;
  }
}

TEST(RuleTable, ShippedPipelineRunsEveryModuleOnceInItsOrder) {
  EXPECT_EQ(shippedSettings().steps,
            (std::vector<std::string>{"primaryKey", "normalisation", "aiKeys", "aiFormat", "relations",
                                      "digitalLinkPlacement", "digitalLinkStem", "linkType", "context",
                                      "extensionParameters", "lua:gcp_allowlist"}));
  std::vector<std::string> listed;
  for (const ModuleState& state : baselineRules().pipeline().states()) {
    listed.push_back(state.name);
    if (state.kind == "cpp") {
      EXPECT_TRUE(state.enabled) << state.name;
      EXPECT_EQ(state.reason, rules::builtinRuleModules().find(state.name)->summary) << state.name;
    }
  }
  EXPECT_EQ(listed, shippedSettings().steps);
}

TEST(RuleTable, MakeModuleRefusesAnUnknownName) {
  EXPECT_THROW(makeModule("lua:gcp_allowlist"), std::invalid_argument);
}

}  // namespace
}  // namespace codepayload::testing
