// digitalLinkStem (plugins/rules/rule_digital_link_stem.cpp): an http(s)
// origin with a clean path; the first fault reported; one trailing slash
// stripped from the stem the generator uses.
#include <gtest/gtest.h>

#include "engine/validation_codes.h"
#include "tests/plugins/rules/rule_test_support.h"

namespace codepayload::testing {
namespace {

const TestAi kGtinKey{"01", "09506000134352"};

Errors stemErrors(const std::string& stem) {
  TestItem item({.primaryKey = kGtinKey, .digitalLinkStem = stem});
  return item.run("digitalLinkStem");
}

TEST(DigitalLinkStemRule, DescribesItselfInThePipeline) {
  const ModuleState& state = shippedModuleState("digitalLinkStem");
  EXPECT_EQ(state.kind, "cpp");
  EXPECT_TRUE(state.enabled);
  EXPECT_EQ(state.reason, "digitalLinkStem: an http(s) origin with a clean path");
}

TEST(DigitalLinkStemRule, NoStemNothingToCheck) {
  TestItem item({.primaryKey = kGtinKey});
  EXPECT_EQ(item.run("digitalLinkStem"), Errors{});
}

TEST(DigitalLinkStemRule, ValidStemsAndTheirNormalisedForm) {
  struct Row {
    const char* sent;
    const char* normalised;
  };
  for (Row row : {Row{"https://id.example.com", "https://id.example.com"},
                  Row{"https://id.example.com/", "https://id.example.com"},
                  Row{"http://id.example.com/a/b", "http://id.example.com/a/b"},
                  Row{"HTTPS://id.example.com/a/", "HTTPS://id.example.com/a"},
                  Row{"https://id.example.com:8443/p%20q", "https://id.example.com:8443/p%20q"},
                  Row{"https://[2001:db8::1]:443", "https://[2001:db8::1]:443"}}) {
    TestItem item({.primaryKey = kGtinKey, .digitalLinkStem = row.sent});
    EXPECT_EQ(item.run("digitalLinkStem"), Errors{}) << row.sent;
    const char* reason = "unset";
    EXPECT_EQ(item.context().normalisedStem(reason), row.normalised) << row.sent;
    EXPECT_EQ(reason, nullptr) << row.sent;
  }
}

TEST(DigitalLinkStemRule, EachFault) {
  struct Row {
    const char* sent;
    const char* reason;
  };
  for (Row row : {Row{"", "scheme"}, Row{"ftp://id.example.com", "scheme"}, Row{"id.example.com", "scheme"},
                  Row{"https://", "host"}, Row{"https:///path", "host"}, Row{"https://id example.com", "host"},
                  Row{"https://id.example.com:", "port"}, Row{"https://id.example.com:80a", "port"},
                  Row{"https://id.example.com:123456", "port"}, Row{"https://user@id.example.com", "userinfo"},
                  Row{"https://id.example.com/a?b=c", "query"}, Row{"https://id.example.com/a#top", "fragment"},
                  Row{"https://id.example.com//a", "emptySegment"}, Row{"https://id.example.com/a//", "emptySegment"},
                  Row{"https://id.example.com/./a", "dotSegment"}, Row{"https://id.example.com/a/..", "dotSegment"},
                  Row{"https://id.example.com/a b", "syntax"}, Row{"https://id.example.com/a%2", "syntax"}}) {
    EXPECT_EQ(stemErrors(row.sent), (Errors{error(codes::digitalLinkStem(), "digitalLinkStem", {row.reason})}))
        << row.sent;
  }
}

TEST(DigitalLinkStemRule, VerdictFollowsEachItemsOwnStem) {
  // The verdict is remembered per thread for the last stem seen: alternate.
  EXPECT_EQ(stemErrors("https://id.example.com/a?b"),
            (Errors{error(codes::digitalLinkStem(), "digitalLinkStem", {"query"})}));
  EXPECT_EQ(stemErrors("https://id.example.com"), Errors{});
  EXPECT_EQ(stemErrors("https://id.example.com/a?b"),
            (Errors{error(codes::digitalLinkStem(), "digitalLinkStem", {"query"})}));
}

}  // namespace
}  // namespace codepayload::testing
