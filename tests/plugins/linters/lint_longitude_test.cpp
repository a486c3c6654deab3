#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintLongitude{"longitude"};

TEST(LintLongitude, AcceptsTenDigitsUpTo3600000000) {
  expectRows(lintLongitude, {
                                pass("0000000000"),
                                pass("3015297971"),
                                pass("3600000000"),
                                bad("3600000001", "invalidLongitude", 0, 10),
                                bad("9999999999", "invalidLongitude", 0, 10),
                            });
}

TEST(LintLongitude, ReportsOtherLengthsAsAWholeAndNonDigitsByPosition) {
  expectRows(lintLongitude, {
                                bad("", "longitudeInvalidLength", 0, 0),
                                bad("301529797", "longitudeInvalidLength", 0, 9),
                                bad("30152979711", "longitudeInvalidLength", 0, 11),
                                bad("3015x97971", "nonDigitCharacter", 4, 1),
                            });
}

// The reason tokens lintLongitude publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintLongitude, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintLongitude.publishedReasons(),
            (Tokens{"longitudeInvalidLength", "nonDigitCharacter", "invalidLongitude"}));
}

}  // namespace
}  // namespace codepayload::lint::test
