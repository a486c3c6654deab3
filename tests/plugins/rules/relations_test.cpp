// relations (plugins/rules/rule_relations.cpp): the dictionary's req= and ex=
// attributes over the item's usable AIs, the primary key included.
#include <gtest/gtest.h>

#include "engine/validation_codes.h"
#include "tests/plugins/rules/rule_test_support.h"

namespace codepayload::testing {
namespace {

const TestAi kGtinKey{"01", "09506000134352"};
const TestAi kSsccKey{"00", "095060000000000015"};

TEST(RelationsRule, DescribesItselfInThePipeline) {
  const ModuleState& state = shippedModuleState("relations");
  EXPECT_EQ(state.kind, "cpp");
  EXPECT_TRUE(state.enabled);
  EXPECT_EQ(state.reason, "the dictionary's requires and excludes relations");
}

TEST(RelationsRule, SatisfiedRequirementsPass) {
  // 10, 17 and 21 need one of 01, 02, 03, 8006, 8026; 250 needs 01 or 8006 and 21.
  TestItem item({.primaryKey = kGtinKey, .ais = {{"10", "L1"}, {"17", "261231"}, {"21", "S"}, {"250", "X"}}});
  EXPECT_EQ(item.run("relations"), Errors{});
}

TEST(RelationsRule, UnmetRequirementListsItsAlternatives) {
  TestItem item({.primaryKey = kSsccKey, .ais = {{"10", "L1"}}});
  EXPECT_EQ(item.run("relations"),
            (Errors{error(codes::relationRequires("10"), "ais.0", {"01", "02", "03", "8006", "8026"})}));
}

TEST(RelationsRule, EachUnmetReqAttributeIsOneError) {
  // 250: req=01,8006 req=21.
  TestItem gtin({.primaryKey = kGtinKey, .ais = {{"250", "X"}}});
  EXPECT_EQ(gtin.run("relations"), (Errors{error(codes::relationRequires("250"), "ais.0", {"21"})}));
  TestItem sscc({.primaryKey = kSsccKey, .ais = {{"250", "X"}}});
  EXPECT_EQ(sscc.run("relations"), (Errors{error(codes::relationRequires("250"), "ais.0", {"01", "8006"}),
                                           error(codes::relationRequires("250"), "ais.0", {"21"})}));
}

TEST(RelationsRule, AlternativeOfSeveralAisNeedsAllOfThem) {
  // 8030: req=00,01+21,253,255,8003,8004,8006+21,8010+8011,8017,8018.
  const std::vector<std::string> alternatives{"00",   "01+21",   "253",       "255",  "8003",
                                              "8004", "8006+21", "8010+8011", "8017", "8018"};
  TestItem without({.primaryKey = kGtinKey, .ais = {{"8030", "sig"}}});
  EXPECT_EQ(without.run("relations"), (Errors{error(codes::relationRequires("8030"), "ais.0", alternatives)}));
  TestItem with({.primaryKey = kGtinKey, .ais = {{"8030", "sig"}, {"21", "S"}}});
  EXPECT_EQ(with.run("relations"), Errors{});
}

TEST(RelationsRule, WildcardRequirementMatchesByPattern) {
  // 3922: req=01 req=30,31nn,32nn,35nn,36nn.
  TestItem without({.primaryKey = kGtinKey, .ais = {{"3922", "100"}}});
  EXPECT_EQ(without.run("relations"),
            (Errors{error(codes::relationRequires("3922"), "ais.0", {"30", "31nn", "32nn", "35nn", "36nn"})}));
  TestItem with({.primaryKey = kGtinKey, .ais = {{"3922", "100"}, {"3103", "000500"}}});
  EXPECT_EQ(with.run("relations"), Errors{});
}

TEST(RelationsRule, TheRequirementOfThePrimaryKeyIsCheckedToo) {
  // 02 as the primary key (not accepted as one, but present): req=37.
  TestItem item({.primaryKey = {"02", "09506000134352"}});
  EXPECT_EQ(item.run("relations"), (Errors{error(codes::relationRequires("02"), "primaryKey", {"37"})}));
}

TEST(RelationsRule, ExclusionNamesTheAiThatCarriesTheAttribute) {
  // 21 ex=235; 235 has no ex=. Whatever the order, 21 is named.
  TestItem item({.primaryKey = kGtinKey, .ais = {{"235", "X"}, {"21", "S"}}});
  EXPECT_EQ(item.run("relations"), (Errors{error(codes::relationExcludes("21", "235"), "ais.1", {"21", "235"})}));
}

TEST(RelationsRule, ExclusionOfThePrimaryKeyComesAfterTheRequirements) {
  // 01 ex=255,37; 37 req=00 req=02,8026.
  TestItem item({.primaryKey = kGtinKey, .ais = {{"37", "5"}}});
  EXPECT_EQ(item.run("relations"), (Errors{error(codes::relationRequires("37"), "ais.0", {"00"}),
                                           error(codes::relationRequires("37"), "ais.0", {"02", "8026"}),
                                           error(codes::relationExcludes("01", "37"), "primaryKey", {"01", "37"})}));
}

TEST(RelationsRule, MutualExclusionIsOneErrorPerPair) {
  // 4330 ex=4331 and 4331 ex=4330: the first of the pair is named.
  TestItem item({.primaryKey = kSsccKey, .ais = {{"4331", "000100"}, {"4330", "000100"}}});
  EXPECT_EQ(item.run("relations"), (Errors{error(codes::relationExcludes("4331", "4330"), "ais.0", {"4331", "4330"})}));
}

TEST(RelationsRule, WildcardExclusion) {
  // 3102 and 3103: ex=310n each.
  TestItem item({.primaryKey = kGtinKey, .ais = {{"3102", "000500"}, {"3103", "000500"}}});
  EXPECT_EQ(item.run("relations"), (Errors{error(codes::relationExcludes("3102", "3103"), "ais.0", {"3102", "3103"})}));
}

TEST(RelationsRule, AnAiDoesNotExcludeItsOwnRepeat) {
  // Without aiKeys a repeated 3103 stays usable; 310n matches it, but a key
  // never excludes itself.
  TestItem item({.primaryKey = kGtinKey, .ais = {{"3103", "000500"}, {"3103", "000600"}}});
  EXPECT_EQ(item.run("relations"), Errors{});
}

TEST(RelationsRule, UnusableAndUnknownAisAreLeftOut) {
  // 21 ex=235, but the 235 is unusable (as aiKeys leaves a repeat); 7777 is unknown.
  TestItem item({.primaryKey = kGtinKey, .ais = {{"21", "S"}, {"7777", "1"}, {"235", "X"}}});
  item.ai(2).usable = false;
  EXPECT_EQ(item.run("relations"), Errors{});

  // An unusable AI does not satisfy a requirement either.
  TestItem unmet({.primaryKey = kSsccKey, .ais = {{"01", "09506000134352"}, {"10", "L1"}}});
  unmet.ai(0).usable = false;
  EXPECT_EQ(unmet.run("relations"),
            (Errors{error(codes::relationRequires("10"), "ais.1", {"01", "02", "03", "8006", "8026"})}));
}

TEST(RelationsRule, UnknownPrimaryKeyIsLeftOut) {
  TestItem item({.primaryKey = {"7777", "1"}, .ais = {{"22", "C"}}});
  EXPECT_EQ(item.run("relations"), (Errors{error(codes::relationRequires("22"), "ais.0", {"01"})}));
}

TEST(RelationsRule, StateOfOneItemDoesNotLeakIntoTheNext) {
  // The module keeps per-thread scratch tables: an item with 01 must not make
  // the next item's 10 look satisfied.
  std::unique_ptr<RuleModule> module = makeModule("relations");
  TestItem first({.primaryKey = kGtinKey, .ais = {{"10", "L1"}}});
  EXPECT_EQ(first.run(*module), Errors{});
  TestItem second({.primaryKey = kSsccKey, .ais = {{"10", "L1"}}});
  EXPECT_EQ(second.run(*module),
            (Errors{error(codes::relationRequires("10"), "ais.0", {"01", "02", "03", "8006", "8026"})}));
}

}  // namespace
}  // namespace codepayload::testing
