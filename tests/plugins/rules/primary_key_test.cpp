// primaryKey (plugins/rules/rule_primary_key.cpp): a known AI that is a Digital
// Link primary key (dlpkey), or, without a stem, one of module.primaryKey.elementStringOnly.
#include <gtest/gtest.h>

#include "engine/validation_codes.h"
#include "tests/plugins/rules/rule_test_support.h"

namespace codepayload::testing {
namespace {

const std::string kGtin = "09506000134352";

TEST(PrimaryKeyRule, DescribesItselfInThePipeline) {
  const ModuleState& state = shippedModuleState("primaryKey");
  EXPECT_EQ(state.kind, "cpp");
  EXPECT_TRUE(state.enabled);
  EXPECT_EQ(state.reason, "primary key: a known AI accepted as primary key here");
}

TEST(PrimaryKeyRule, AcceptsDigitalLinkPrimaryKeysWithAndWithoutStem) {
  for (const char* key : {"00", "01", "253", "414", "8003", "8006", "8018"}) {
    TestItem plain({.primaryKey = {key, "1"}});
    EXPECT_EQ(plain.run("primaryKey"), Errors{}) << key;
    EXPECT_TRUE(plain.context().primaryKeyAccepted) << key;
    TestItem linked({.primaryKey = {key, "1"}, .digitalLinkStem = std::string(kStem)});
    EXPECT_EQ(linked.run("primaryKey"), Errors{}) << key;
    EXPECT_TRUE(linked.context().primaryKeyAccepted) << key;
  }
}

TEST(PrimaryKeyRule, LeavesTheValueToAiFormat) {
  TestItem item({.primaryKey = {"01", "not a GTIN"}});
  EXPECT_EQ(item.run("primaryKey"), Errors{});
  EXPECT_TRUE(item.context().primaryKeyAccepted);
}

TEST(PrimaryKeyRule, UnknownAi) {
  for (const char* key : {"1", "7777", "", "0A", "12345"}) {
    TestItem item({.primaryKey = {key, kGtin}});
    EXPECT_EQ(item.run("primaryKey"), (Errors{error(codes::primaryKey(), "primaryKey", {key, "unknownAi"})})) << key;
    EXPECT_FALSE(item.context().primaryKeyAccepted) << key;
  }
}

TEST(PrimaryKeyRule, KnownAiThatIsNoPrimaryKey) {
  for (const char* key : {"10", "21", "02", "8020"}) {
    TestItem item({.primaryKey = {key, "1"}});
    EXPECT_EQ(item.run("primaryKey"), (Errors{error(codes::primaryKey(), "primaryKey", {key, "notPrimaryKey"})}))
        << key;
    EXPECT_FALSE(item.context().primaryKeyAccepted) << key;
  }
}

TEST(PrimaryKeyRule, ElementStringOnlyKeyIsAcceptedOnlyWithoutStem) {
  TestItem plain({.primaryKey = {"03", kGtin}});
  EXPECT_EQ(plain.run("primaryKey"), Errors{});
  EXPECT_TRUE(plain.context().primaryKeyAccepted);

  TestItem linked({.primaryKey = {"03", kGtin}, .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(linked.run("primaryKey"), (Errors{error(codes::primaryKey(), "primaryKey", {"03", "notPrimaryKey"})}));
  EXPECT_FALSE(linked.context().primaryKeyAccepted);
}

TEST(PrimaryKeyRule, ElementStringOnlyListComesFromTheSettings) {
  EXPECT_EQ(settingList(shippedModuleSettings("primaryKey"), "elementStringOnly"), std::vector<std::string>{"03"});

  ModuleSettings none;
  TestItem withoutList({.primaryKey = {"03", kGtin}});
  EXPECT_EQ(withoutList.run(*makeModule("primaryKey", none)),
            (Errors{error(codes::primaryKey(), "primaryKey", {"03", "notPrimaryKey"})}));
  EXPECT_FALSE(withoutList.context().primaryKeyAccepted);

  ModuleSettings batch{{"elementStringOnly", "10"}};
  TestItem batchKey({.primaryKey = {"10", "L1"}});
  EXPECT_EQ(batchKey.run(*makeModule("primaryKey", batch)), Errors{});
  EXPECT_TRUE(batchKey.context().primaryKeyAccepted);
  TestItem batchWithStem({.primaryKey = {"10", "L1"}, .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(batchWithStem.run(*makeModule("primaryKey", batch)),
            (Errors{error(codes::primaryKey(), "primaryKey", {"10", "notPrimaryKey"})}));

  // An unknown AI in the list does not make it known.
  ModuleSettings unknown{{"elementStringOnly", "7777"}};
  TestItem unknownKey({.primaryKey = {"7777", "1"}});
  EXPECT_EQ(unknownKey.run(*makeModule("primaryKey", unknown)),
            (Errors{error(codes::primaryKey(), "primaryKey", {"7777", "unknownAi"})}));
}

TEST(PrimaryKeyRule, LooksOnlyAtThePrimaryKey) {
  TestItem item({.primaryKey = {"01", kGtin}, .ais = {{"7777", "x"}, {"01", "x"}}});
  EXPECT_EQ(item.run("primaryKey"), Errors{});
}

}  // namespace
}  // namespace codepayload::testing
