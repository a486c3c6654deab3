#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintMi{"mi"};

TEST(LintMi, AcceptsMinutes00To59) {
  expectRows(lintMi, {
                         pass("00"),
                         pass("30"),
                         pass("59"),
                         bad("60", "illegalMinute", 0, 2),
                         bad("99", "illegalMinute", 0, 2),
                     });
}

TEST(LintMi, ReportsLengthThenNonDigits) {
  expectRows(lintMi, {
                         bad("", "minuteTooShort", 0, 0),
                         bad("1", "minuteTooShort", 0, 1),
                         bad("111", "minuteTooLong", 0, 3),
                         bad("x0", "nonDigitCharacter", 0, 1),
                         bad("0x", "nonDigitCharacter", 1, 1),
                     });
}

// The reason tokens lintMi publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintMi, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintMi.publishedReasons(),
            (Tokens{"minuteTooShort", "minuteTooLong", "nonDigitCharacter", "illegalMinute"}));
}

}  // namespace
}  // namespace codepayload::lint::test
