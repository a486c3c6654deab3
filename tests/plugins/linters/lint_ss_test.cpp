#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintSs{"ss"};

TEST(LintSs, AcceptsSeconds00To59) {
  expectRows(lintSs, {
                         pass("00"),
                         pass("45"),
                         pass("59"),
                         bad("60", "illegalSecond", 0, 2),
                         bad("61", "illegalSecond", 0, 2),
                     });
}

TEST(LintSs, ReportsLengthThenNonDigits) {
  expectRows(lintSs, {
                         bad("", "secondTooShort", 0, 0),
                         bad("1", "secondTooShort", 0, 1),
                         bad("111", "secondTooLong", 0, 3),
                         bad("1111", "secondTooLong", 0, 4),
                         bad("x0", "nonDigitCharacter", 0, 1),
                         bad("0x", "nonDigitCharacter", 1, 1),
                     });
}

// The reason tokens lintSs publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintSs, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintSs.publishedReasons(),
            (Tokens{"secondTooShort", "secondTooLong", "nonDigitCharacter", "illegalSecond"}));
}

}  // namespace
}  // namespace codepayload::lint::test
