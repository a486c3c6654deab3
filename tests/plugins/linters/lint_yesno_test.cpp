#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintYesno{"yesno"};

TEST(LintYesno, AcceptsZeroAndOne) {
  expectRows(lintYesno, {
                            pass("0"),
                            pass("1"),
                            bad("", "notZeroOrOne", 0, 0),
                            bad("2", "notZeroOrOne", 0, 1),
                            bad("/", "notZeroOrOne", 0, 1),
                            bad("Y", "notZeroOrOne", 0, 1),
                            bad("01", "notZeroOrOne", 0, 2),
                        });
}

// The reason tokens lintYesno publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintYesno, PublishesExactlyItsReasons) { EXPECT_EQ(lintYesno.publishedReasons(), (Tokens{"notZeroOrOne"})); }

}  // namespace
}  // namespace codepayload::lint::test
