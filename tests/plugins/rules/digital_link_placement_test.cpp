// digitalLinkPlacement (plugins/rules/rule_digital_link_placement.cpp): with a
// stem and an accepted primary key, each usable AI is a path qualifier (from
// one qualifier sequence, whose order it takes) or a permitted query attribute.
#include <gtest/gtest.h>

#include "engine/validation_codes.h"
#include "tests/plugins/rules/rule_test_support.h"

namespace codepayload::testing {
namespace {

const TestAi kGtinKey{"01", "09506000134352"};

struct Place {
  Placement placement;
  int rank;

  bool operator==(const Place&) const = default;
};

void PrintTo(const Place& place, std::ostream* out) {
  *out << "{placement=" << static_cast<int>(place.placement) << ", rank=" << place.rank << "}";
}

std::vector<Place> places(TestItem& item) {
  std::vector<Place> result;
  for (const ItemAi& ai : item.context().ais()) result.push_back({ai.placement, ai.qualifierRank});
  return result;
}

// An item with a stem whose primary key the primaryKey module accepted.
TestItem& accepted(TestItem& item) {
  item.context().primaryKeyAccepted = true;
  return item;
}

Place qualifier(int rank) { return {Placement::PathQualifier, rank}; }
constexpr Place kAttribute{Placement::QueryAttribute, 0};
constexpr Place kUndecided{Placement::Undecided, 0};

TEST(DigitalLinkPlacementRule, DescribesItselfInThePipeline) {
  const ModuleState& state = shippedModuleState("digitalLinkPlacement");
  EXPECT_EQ(state.kind, "cpp");
  EXPECT_TRUE(state.enabled);
  EXPECT_EQ(state.reason, "each AI is a path qualifier or a permitted data attribute; one qualifier sequence");
}

TEST(DigitalLinkPlacementRule, QualifiersTakeTheirRankAndAttributesGoToTheQuery) {
  // 01: dlpkey=22,10,21|235. 17 and 3103 are data attributes ('?').
  TestItem item({.primaryKey = kGtinKey,
                 .ais = {{"17", "261231"}, {"21", "S"}, {"10", "L"}, {"3103", "000500"}, {"22", "C"}},
                 .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(accepted(item).run("digitalLinkPlacement"), Errors{});
  EXPECT_EQ(places(item), (std::vector<Place>{kAttribute, qualifier(2), qualifier(1), kAttribute, qualifier(0)}));
}

TEST(DigitalLinkPlacementRule, AnySubsetOfASequenceFits) {
  TestItem serial({.primaryKey = kGtinKey, .ais = {{"21", "S"}}, .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(accepted(serial).run("digitalLinkPlacement"), Errors{});
  EXPECT_EQ(places(serial), std::vector<Place>{qualifier(2)});

  TestItem second({.primaryKey = kGtinKey, .ais = {{"235", "T"}}, .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(accepted(second).run("digitalLinkPlacement"), Errors{});
  EXPECT_EQ(places(second), std::vector<Place>{qualifier(0)});
}

TEST(DigitalLinkPlacementRule, AiWithNoPlaceInTheUri) {
  // 8200 and 254 are neither qualifiers of 01 nor data attributes.
  TestItem item({.primaryKey = kGtinKey,
                 .ais = {{"10", "L"}, {"8200", "https://x.example"}, {"254", "E"}},
                 .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(accepted(item).run("digitalLinkPlacement"), (Errors{error(codes::aiDigitalLink(1), "ais.1", {"8200"}),
                                                                error(codes::aiDigitalLink(2), "ais.2", {"254"})}));
  EXPECT_EQ(places(item), (std::vector<Place>{qualifier(1), kUndecided, kUndecided}));
}

TEST(DigitalLinkPlacementRule, QualifiersFromTwoSequences) {
  TestItem item({.primaryKey = kGtinKey,
                 .ais = {{"235", "T"}, {"17", "261231"}, {"21", "S"}},
                 .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(accepted(item).run("digitalLinkPlacement"),
            (Errors{error(codes::qualifiers(), "ais", {"01", "235", "21"})}));
  EXPECT_EQ(places(item), (std::vector<Place>{qualifier(0), kAttribute, qualifier(0)}));

  // 414: dlpkey=254|7040.
  TestItem gln({.primaryKey = {"414", "9506000134352"},
                .ais = {{"7040", "1ABC"}, {"254", "E"}},
                .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(accepted(gln).run("digitalLinkPlacement"),
            (Errors{error(codes::qualifiers(), "ais", {"414", "7040", "254"})}));
  TestItem glnExtension(
      {.primaryKey = {"414", "9506000134352"}, .ais = {{"254", "E"}}, .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(accepted(glnExtension).run("digitalLinkPlacement"), Errors{});
  EXPECT_EQ(places(glnExtension), std::vector<Place>{qualifier(0)});
}

TEST(DigitalLinkPlacementRule, QualifierOfAnotherKeyIsNoQualifierHere) {
  // 254 qualifies 414, not 00; 00 has no qualifiers.
  TestItem item({.primaryKey = {"00", "095060000000000015"},
                 .ais = {{"254", "E"}, {"10", "L"}},
                 .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(accepted(item).run("digitalLinkPlacement"), (Errors{error(codes::aiDigitalLink(0), "ais.0", {"254"})}));
  EXPECT_EQ(places(item), (std::vector<Place>{kUndecided, kAttribute}));
}

TEST(DigitalLinkPlacementRule, UnusableAisAreSkipped) {
  TestItem item({.primaryKey = kGtinKey,
                 .ais = {{"7777", "1"}, {"8200", "x"}, {"21", "S"}},
                 .digitalLinkStem = std::string(kStem)});
  item.ai(1).usable = false;
  EXPECT_EQ(accepted(item).run("digitalLinkPlacement"), Errors{});
  EXPECT_EQ(places(item), (std::vector<Place>{kUndecided, kUndecided, qualifier(2)}));
}

TEST(DigitalLinkPlacementRule, DoesNothingWithoutStemOrAcceptedPrimaryKey) {
  TestItem noStem({.primaryKey = kGtinKey, .ais = {{"8200", "x"}, {"21", "S"}}});
  EXPECT_EQ(accepted(noStem).run("digitalLinkPlacement"), Errors{});
  EXPECT_EQ(places(noStem), (std::vector<Place>{kUndecided, kUndecided}));

  TestItem notAccepted(
      {.primaryKey = kGtinKey, .ais = {{"8200", "x"}, {"21", "S"}}, .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(notAccepted.run("digitalLinkPlacement"), Errors{});
  EXPECT_EQ(places(notAccepted), (std::vector<Place>{kUndecided, kUndecided}));
}

TEST(DigitalLinkPlacementRule, FollowsThePrimaryKeyModulesVerdict) {
  // 03 is accepted only without a stem, so with one nothing is placed.
  TestItem item({.primaryKey = {"03", "09506000134352"}, .ais = {{"10", "L"}}, .digitalLinkStem = std::string(kStem)});
  EXPECT_EQ(item.run("primaryKey"), (Errors{error(codes::primaryKey(), "primaryKey", {"03", "notPrimaryKey"})}));
  EXPECT_EQ(item.run("digitalLinkPlacement").size(), 1u);
  EXPECT_EQ(places(item), std::vector<Place>{kUndecided});
}

}  // namespace
}  // namespace codepayload::testing
