#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintNozeroprefix{"nozeroprefix"};

TEST(LintNozeroprefix, AcceptsNumbersWithoutALeadingZero) {
  expectRows(lintNozeroprefix, {
                                   pass(""),
                                   pass("1"),
                                   pass("10"),
                                   pass("1234567890"),
                               });
}

TEST(LintNozeroprefix, ReportsTheLeadingZeroFirst) {
  expectRows(lintNozeroprefix, {
                                   bad("0", "illegalZeroPrefix", 0, 1),
                                   bad("01", "illegalZeroPrefix", 0, 1),
                                   bad("0123", "illegalZeroPrefix", 0, 1),
                                   bad("0A", "illegalZeroPrefix", 0, 1),
                               });
}

TEST(LintNozeroprefix, ReportsTheFirstNonDigit) {
  expectRows(lintNozeroprefix, {
                                   bad("A999", "nonDigitCharacter", 0, 1),
                                   bad("9A99", "nonDigitCharacter", 1, 1),
                                   bad("999A", "nonDigitCharacter", 3, 1),
                               });
}

// The reason tokens lintNozeroprefix publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintNozeroprefix, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintNozeroprefix.publishedReasons(), (Tokens{"illegalZeroPrefix", "nonDigitCharacter"}));
}

}  // namespace
}  // namespace codepayload::lint::test
