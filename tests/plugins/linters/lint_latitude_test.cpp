#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintLatitude{"latitude"};

TEST(LintLatitude, AcceptsTenDigitsUpTo1800000000) {
  expectRows(lintLatitude, {
                               pass("0000000000"),
                               pass("0279085848"),
                               pass("1800000000"),
                               bad("1800000001", "invalidLatitude", 0, 10),
                               bad("9999999999", "invalidLatitude", 0, 10),
                           });
}

TEST(LintLatitude, ReportsOtherLengthsAsAWholeAndNonDigitsByPosition) {
  expectRows(lintLatitude, {
                               bad("", "latitudeInvalidLength", 0, 0),
                               bad("027908584", "latitudeInvalidLength", 0, 9),
                               bad("02790858481", "latitudeInvalidLength", 0, 11),
                               bad("02790858A8", "nonDigitCharacter", 8, 1),
                               bad("-279085848", "nonDigitCharacter", 0, 1),
                           });
}

// The reason tokens lintLatitude publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintLatitude, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintLatitude.publishedReasons(), (Tokens{"latitudeInvalidLength", "nonDigitCharacter", "invalidLatitude"}));
}

}  // namespace
}  // namespace codepayload::lint::test
