// linkType (plugins/rules/rule_link_type.cpp): with a stem, a "gs1:" link type
// the generator offers (aliases from module.linkType.aliases) or an absolute http(s) URI.
#include <gtest/gtest.h>

#include "engine/validation_codes.h"
#include "tests/plugins/rules/rule_test_support.h"

namespace codepayload::testing {
namespace {

const TestAi kGtinKey{"01", "09506000134352"};

Errors linkTypeErrors(const std::string& linkType, const ModuleSettings& settings = shippedModuleSettings("linkType")) {
  TestItem item({.primaryKey = kGtinKey, .digitalLinkStem = std::string(kStem), .linkType = linkType});
  return item.run(*makeModule("linkType", settings));
}

ValidationError linkTypeError(const std::string& value, const char* reason) {
  return error(codes::linkType(), "linkType", {value, reason});
}

TEST(LinkTypeRule, DescribesItselfInThePipeline) {
  const ModuleState& state = shippedModuleState("linkType");
  EXPECT_EQ(state.kind, "cpp");
  EXPECT_TRUE(state.enabled);
  EXPECT_EQ(state.reason, "linkType: an offered gs1: link type or an absolute http(s) URI");
}

TEST(LinkTypeRule, AbsentLinkTypeNothingToCheck) {
  TestItem item({.primaryKey = kGtinKey, .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(item.run("linkType"), Errors{});
  TestItem noStem({.primaryKey = kGtinKey});
  EXPECT_EQ(noStem.run("linkType"), Errors{});
}

TEST(LinkTypeRule, NeedsAStem) {
  for (const char* value : {"gs1:pip", "https://example.com/type", "nonsense"}) {
    TestItem item({.primaryKey = kGtinKey, .linkType = value});
    EXPECT_EQ(item.run("linkType"), (Errors{linkTypeError(value, "requiresDigitalLinkStem")})) << value;
  }
}

TEST(LinkTypeRule, OfferedVocabularyTypesPass) {
  // Restricted to a domain other than the resolver, or deprecated: still offered.
  for (const char* value : {"gs1:pip", "gs1:activityIdeas", "gs1:eifu", "gs1:productSustainabilityInfo"}) {
    EXPECT_EQ(linkTypeErrors(value), Errors{}) << value;
  }
}

TEST(LinkTypeRule, ResolverOnlyTypesAreNotSelectable) {
  for (const char* value : {"gs1:defaultLink", "gs1:defaultLinkMulti", "gs1:handledBy"}) {
    EXPECT_EQ(linkTypeErrors(value), (Errors{linkTypeError(value, "notSelectable")})) << value;
  }
}

TEST(LinkTypeRule, UnknownGs1Types) {
  for (const char* value : {"gs1:", "gs1:nonsense", "gs1:PIP", "gs1:pip "}) {
    EXPECT_EQ(linkTypeErrors(value), (Errors{linkTypeError(value, "unknownLinkType")})) << value;
  }
}

TEST(LinkTypeRule, OtherValuesMustBeAbsoluteHttpUris) {
  for (const char* value : {"https://example.com/type", "http://example.com", "HTTPS://example.com/a%20b"}) {
    EXPECT_EQ(linkTypeErrors(value), Errors{}) << value;
  }
  for (const char* value : {"", "pip", "GS1:pip", "ftp://example.com", "https://", "/relative", "https://ex ample.com",
                            "https://example.com/%zz"}) {
    EXPECT_EQ(linkTypeErrors(value), (Errors{linkTypeError(value, "notAbsoluteHttpUri")})) << value;
  }
}

TEST(LinkTypeRule, AliasesComeFromTheSettings) {
  EXPECT_EQ(settingList(shippedModuleSettings("linkType"), "aliases"),
            (std::vector<std::string>{"gs1:defaultPage=gs1:defaultLink", "gs1:defaultPageMulti=gs1:defaultLinkMulti"}));
  // The shipped aliases name resolver-only types: known, not offered.
  EXPECT_EQ(linkTypeErrors("gs1:defaultPage"), (Errors{linkTypeError("gs1:defaultPage", "notSelectable")}));
  EXPECT_EQ(linkTypeErrors("gs1:defaultPageMulti"), (Errors{linkTypeError("gs1:defaultPageMulti", "notSelectable")}));

  ModuleSettings none;
  EXPECT_EQ(linkTypeErrors("gs1:defaultPage", none), (Errors{linkTypeError("gs1:defaultPage", "unknownLinkType")}));
}

}  // namespace
}  // namespace codepayload::testing
