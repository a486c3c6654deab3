#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintHh{"hh"};

TEST(LintHh, AcceptsHours00To23) {
  expectRows(lintHh, {
                         pass("00"),
                         pass("09"),
                         pass("10"),
                         pass("23"),
                         bad("24", "illegalHour", 0, 2),
                         bad("99", "illegalHour", 0, 2),
                     });
}

TEST(LintHh, ReportsLengthThenNonDigits) {
  expectRows(lintHh, {
                         bad("", "hourTooShort", 0, 0),
                         bad("1", "hourTooShort", 0, 1),
                         bad("111", "hourTooLong", 0, 3),
                         bad("1111", "hourTooLong", 0, 4),
                         bad("x0", "nonDigitCharacter", 0, 1),
                         bad("0x", "nonDigitCharacter", 1, 1),
                     });
}

// The reason tokens lintHh publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintHh, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintHh.publishedReasons(), (Tokens{"hourTooShort", "hourTooLong", "nonDigitCharacter", "illegalHour"}));
}

}  // namespace
}  // namespace codepayload::lint::test
