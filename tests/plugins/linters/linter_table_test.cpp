// The registry: sorted, no duplicates, exactly the linters that have a test
// of their own, aliases pointing at the same checks, and nothing registered
// for other names. No list here names every linter, so adding one touches
// only its file, its test and its row.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/linter.h"
#include "plugins/linters/linters.h"

namespace codepayload::lint::test {
namespace {

// The renamed forms and the linter each now names: rows of their own, with no
// test suite of their own.
const std::map<std::string_view, std::string_view> kRenamedForms = {
    {"hhmm", "hhmi"},
    {"key", "gcppos1"},
    {"keyoff1", "gcppos2"},
};

std::vector<std::string_view> registeredNames() {
  std::vector<std::string_view> names;
  LinterTable table = builtinLinters();
  for (const LinterEntry* entry = table.begin; entry != table.end; ++entry) names.push_back(entry->name);
  return names;
}

// The linter a test suite is about: "csum" for "LintCsum" (each lint_<name>_test.cpp
// names its suite so); empty for other suites ("LinterTable").
std::string linterOfSuite(std::string_view suite) {
  if (suite.size() < 5 || suite.substr(0, 4) != "Lint" || !std::isupper(static_cast<unsigned char>(suite[4]))) {
    return {};
  }
  std::string name(suite.substr(4));
  name[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
  return name;
}

using Names = std::set<std::string>;

// The names of `names` that `others` lacks (a short failure message, where
// comparing whole sets would print forty names).
Names without(const Names& names, const Names& others) {
  Names left;
  for (const std::string& name : names) {
    if (!others.count(name)) left.insert(name);
  }
  return left;
}

// Every linter with a test suite of its own, and those whose suite pins the
// reasons it publishes (lint_test_rows.h).
struct TestedLinters {
  Names withSuite;
  Names withPinnedReasons;
};

TestedLinters testedLinters() {
  TestedLinters tested;
  const ::testing::UnitTest& unitTest = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < unitTest.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unitTest.GetTestSuite(i);
    const std::string name = linterOfSuite(suite.name());
    if (name.empty()) continue;
    tested.withSuite.insert(name);
    for (int j = 0; j < suite.total_test_count(); ++j) {
      if (std::string_view(suite.GetTestInfo(j)->name()) == "PublishesExactlyItsReasons") {
        tested.withPinnedReasons.insert(name);
      }
    }
  }
  return tested;
}

TEST(LinterTable, IsSortedWithoutDuplicates) {
  std::vector<std::string_view> names = registeredNames();
  for (std::size_t i = 1; i < names.size(); ++i) {
    EXPECT_LT(names[i - 1], names[i]) << "at row " << i;
  }
}

// The published names are the rows: each row but a renamed form has its own
// test suite pinning its reasons, and each such suite has its row (its test
// reaches the linter through the table by name and fails without one).
TEST(LinterTable, RegistersExactlyTheLintersWithTestsOfTheirOwn) {
  Names expected;
  for (std::string_view name : registeredNames()) {
    if (!kRenamedForms.count(name)) expected.emplace(name);
  }
  const TestedLinters tested = testedLinters();
  EXPECT_EQ(without(expected, tested.withSuite), Names{}) << "rows without a Lint<Name> test suite";
  EXPECT_EQ(without(tested.withSuite, expected), Names{}) << "Lint<Name> test suites without a row";
  EXPECT_EQ(without(expected, tested.withPinnedReasons), Names{})
      << "rows whose test suite has no PublishesExactlyItsReasons";
  EXPECT_EQ(registeredNames().size(), expected.size() + kRenamedForms.size());
}

TEST(LinterTable, FindsEveryRegisteredNameByBinarySearch) {
  LinterTable table = builtinLinters();
  for (const LinterEntry* entry = table.begin; entry != table.end; ++entry) {
    EXPECT_EQ(builtinLinters().find(entry->name), entry->fn) << entry->name;
  }
}

// A renamed form's row is its successor's: the same check and the same sentences.
TEST(LinterTable, RenamedFormsShareTheirSuccessorsCheck) {
  for (const auto& [renamed, successor] : kRenamedForms) {
    const LinterEntry* renamedRow = builtinLinters().entry(renamed);
    const LinterEntry* successorRow = builtinLinters().entry(successor);
    ASSERT_NE(renamedRow, nullptr) << renamed;
    ASSERT_NE(successorRow, nullptr) << successor;
    EXPECT_EQ(renamedRow->fn, successorRow->fn) << renamed;
    EXPECT_EQ(renamedRow->sentences, successorRow->sentences) << renamed;
  }
}

TEST(LinterTable, HasNothingForOtherNames) {
  for (std::string_view name : {"latlong", "", "csu", "csumm", "CSUM", "yyyymmd0", "mm", "aaa", "zzzz"}) {
    EXPECT_EQ(builtinLinters().find(name), nullptr) << "\"" << name << "\"";
  }
}

}  // namespace
}  // namespace codepayload::lint::test
