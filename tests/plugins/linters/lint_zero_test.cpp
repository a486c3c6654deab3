#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintZero{"zero"};

TEST(LintZero, AcceptsZeros) {
  expectRows(lintZero, {
                           pass("0"),
                           pass("00"),
                           pass("000"),
                       });
}

TEST(LintZero, ReportsAnythingElseAsAWhole) {
  expectRows(lintZero, {
                           bad("", "notZero", 0, 0),
                           bad("1", "notZero", 0, 1),
                           bad("01", "notZero", 0, 2),
                           bad("10", "notZero", 0, 2),
                           bad("010", "notZero", 0, 3),
                           bad("X", "notZero", 0, 1),
                           bad("0X", "notZero", 0, 2),
                       });
}

// The reason tokens lintZero publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintZero, PublishesExactlyItsReasons) { EXPECT_EQ(lintZero.publishedReasons(), (Tokens{"notZero"})); }

}  // namespace
}  // namespace codepayload::lint::test
