// aiKeys (plugins/rules/rule_ai_keys.cpp): every key of ais is a known AI, does
// not repeat the primary key and appears once; repeats become unusable.
#include <gtest/gtest.h>

#include "engine/validation_codes.h"
#include "tests/plugins/rules/rule_test_support.h"

namespace codepayload::testing {
namespace {

const TestAi kGtinKey{"01", "09506000134352"};

std::vector<bool> usable(TestItem& item) {
  std::vector<bool> flags;
  for (const ItemAi& ai : item.context().ais()) flags.push_back(ai.usable);
  return flags;
}

TEST(AiKeysRule, DescribesItselfInThePipeline) {
  const ModuleState& state = shippedModuleState("aiKeys");
  EXPECT_EQ(state.kind, "cpp");
  EXPECT_TRUE(state.enabled);
  EXPECT_EQ(state.reason, "ais: known AIs, no repeat of the primary key, no duplicate keys");
}

TEST(AiKeysRule, DistinctKnownKeysPass) {
  TestItem item({.primaryKey = kGtinKey, .ais = {{"10", "L1"}, {"21", "S1"}, {"17", "261231"}, {"3103", "000500"}}});
  EXPECT_EQ(item.run("aiKeys"), Errors{});
  EXPECT_EQ(usable(item), (std::vector<bool>{true, true, true, true}));
}

TEST(AiKeysRule, NoAisNoErrors) {
  TestItem item({.primaryKey = {"7777", "x"}});
  EXPECT_EQ(item.run("aiKeys"), Errors{});
}

TEST(AiKeysRule, UnknownAi) {
  TestItem item({.primaryKey = kGtinKey, .ais = {{"10", "L1"}, {"7777", "1"}, {"1", "1"}, {"", "1"}, {"ab", "1"}}});
  EXPECT_EQ(
      item.run("aiKeys"),
      (Errors{error(codes::ai(1), "ais.1", {"7777", "unknownAi"}), error(codes::ai(2), "ais.2", {"1", "unknownAi"}),
              error(codes::ai(3), "ais.3", {"", "unknownAi"}), error(codes::ai(4), "ais.4", {"ab", "unknownAi"})}));
  EXPECT_EQ(usable(item), (std::vector<bool>{true, false, false, false, false}));
}

TEST(AiKeysRule, RepeatOfThePrimaryKey) {
  TestItem item({.primaryKey = kGtinKey, .ais = {{"10", "L1"}, {"01", "09506000134352"}}});
  EXPECT_EQ(item.run("aiKeys"), (Errors{error(codes::ai(1), "ais.1", {"01", "repeatsPrimaryKey"})}));
  EXPECT_EQ(usable(item), (std::vector<bool>{true, false}));
}

TEST(AiKeysRule, DuplicateKeyNamesTheFirstIndex) {
  TestItem item({.primaryKey = kGtinKey, .ais = {{"10", "A"}, {"21", "S"}, {"10", "B"}, {"10", "C"}}});
  EXPECT_EQ(item.run("aiKeys"),
            (Errors{error(codes::aiKeys(), "ais.2", {"10", "0"}), error(codes::aiKeys(), "ais.3", {"10", "0"})}));
  EXPECT_EQ(usable(item), (std::vector<bool>{true, true, false, false}));
}

TEST(AiKeysRule, DuplicateIsReportedBesideTheOtherFaults) {
  // An unknown key given twice (by slot and, without a slot, by text), and the
  // primary key repeated twice: each fault of each entry is listed.
  TestItem item({.primaryKey = kGtinKey,
                 .ais = {{"7777", "1"}, {"7777", "2"}, {"x", "1"}, {"x", "2"}, {"01", "1"}, {"01", "2"}}});
  EXPECT_EQ(
      item.run("aiKeys"),
      (Errors{error(codes::ai(0), "ais.0", {"7777", "unknownAi"}), error(codes::ai(1), "ais.1", {"7777", "unknownAi"}),
              error(codes::aiKeys(), "ais.1", {"7777", "0"}), error(codes::ai(2), "ais.2", {"x", "unknownAi"}),
              error(codes::ai(3), "ais.3", {"x", "unknownAi"}), error(codes::aiKeys(), "ais.3", {"x", "2"}),
              error(codes::ai(4), "ais.4", {"01", "repeatsPrimaryKey"}),
              error(codes::ai(5), "ais.5", {"01", "repeatsPrimaryKey"}),
              error(codes::aiKeys(), "ais.5", {"01", "4"})}));
  EXPECT_EQ(usable(item), (std::vector<bool>{false, false, false, false, false, false}));
}

TEST(AiKeysRule, KeysAreComparedExactly) {
  // "01" and "001", "10" and "100" are different keys (different AI lengths).
  TestItem item({.primaryKey = kGtinKey, .ais = {{"10", "L1"}, {"100", "1"}, {"001", "1"}}});
  EXPECT_EQ(item.run("aiKeys"), (Errors{error(codes::ai(1), "ais.1", {"100", "unknownAi"}),
                                        error(codes::ai(2), "ais.2", {"001", "unknownAi"})}));
}

TEST(AiKeysRule, UnknownPrimaryKeyIsNotRepeated) {
  // The primary key's own faults belong to primaryKey; an unknown key in ais
  // with the same text is reported as unknown only.
  TestItem item({.primaryKey = {"7777", "1"}, .ais = {{"7777", "1"}}});
  EXPECT_EQ(item.run("aiKeys"), (Errors{error(codes::ai(0), "ais.0", {"7777", "unknownAi"})}));
}

}  // namespace
}  // namespace codepayload::testing
