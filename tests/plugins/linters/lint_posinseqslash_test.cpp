#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintPosinseqslash{"posinseqslash"};

TEST(LintPosinseqslash, AcceptsPositionsUpToTheEnd) {
  expectRows(lintPosinseqslash, {
                                    pass("1/1"),
                                    pass("2/3"),
                                    pass("9/10"),
                                    pass("10/10"),
                                    pass("1/100"),
                                    pass("99/100"),
                                    pass("998/999"),
                                });
}

TEST(LintPosinseqslash, ReportsMalformedShapesAsAWhole) {
  expectRows(lintPosinseqslash, {
                                    bad("", "positionInSequenceMalformed", 0, 0),
                                    bad("/", "positionInSequenceMalformed", 0, 1),
                                    bad("1", "positionInSequenceMalformed", 0, 1),
                                    bad("x", "positionInSequenceMalformed", 0, 1),
                                    bad("1/", "positionInSequenceMalformed", 0, 2),
                                    bad("/1", "positionInSequenceMalformed", 0, 2),
                                    bad("1//", "positionInSequenceMalformed", 0, 3),
                                    bad("1//2", "positionInSequenceMalformed", 0, 4),
                                    bad("x/y", "positionInSequenceMalformed", 0, 3),
                                    bad("1/2x", "positionInSequenceMalformed", 0, 4),
                                    bad("1-2", "positionInSequenceMalformed", 0, 3),
                                });
}

TEST(LintPosinseqslash, ReportsALeadingZeroOverThatNumber) {
  expectRows(lintPosinseqslash, {
                                    bad("0/1", "illegalZeroPrefix", 0, 1),
                                    bad("01/2", "illegalZeroPrefix", 0, 2),
                                    bad("01/02", "illegalZeroPrefix", 0, 2),
                                    bad("1/0", "illegalZeroPrefix", 2, 1),
                                    bad("1/02", "illegalZeroPrefix", 2, 2),
                                    bad("12/012", "illegalZeroPrefix", 3, 3),
                                });
}

TEST(LintPosinseqslash, ReportsAPositionAboveTheEndAsAWhole) {
  expectRows(lintPosinseqslash, {
                                    bad("2/1", "positionExceedsEnd", 0, 3),
                                    bad("10/9", "positionExceedsEnd", 0, 4),
                                    bad("11/10", "positionExceedsEnd", 0, 5),
                                    bad("100/99", "positionExceedsEnd", 0, 6),
                                    bad("999/998", "positionExceedsEnd", 0, 7),
                                });
}

// The reason tokens lintPosinseqslash publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintPosinseqslash, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintPosinseqslash.publishedReasons(),
            (Tokens{"positionInSequenceMalformed", "illegalZeroPrefix", "positionExceedsEnd"}));
}

}  // namespace
}  // namespace codepayload::lint::test
