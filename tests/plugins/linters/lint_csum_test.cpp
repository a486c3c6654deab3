#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintCsum{"csum"};

TEST(LintCsum, AcceptsCorrectCheckDigits) {
  expectRows(lintCsum, {
                           pass("0"),
                           pass("02345673"),
                           pass("416000336108"),
                           pass("1234567890128"),
                           pass("12345678901231"),
                           pass("09506000134352"),
                           pass("123456789012345675"),
                           pass("00000000000000000000"),
                       });
}

TEST(LintCsum, ReportsAWrongCheckDigitOnTheLastCharacter) {
  expectRows(lintCsum, {
                           bad("1", "incorrectCheckDigit", 0, 1),
                           bad("12345673", "incorrectCheckDigit", 7, 1),
                           bad("416000336109", "incorrectCheckDigit", 11, 1),
                           bad("12345678901232", "incorrectCheckDigit", 13, 1),
                           bad("123456789012345670", "incorrectCheckDigit", 17, 1),
                       });
}

TEST(LintCsum, ReportsTheLeftmostNonDigit) {
  expectRows(lintCsum, {
                           bad(" 23456789012345675", "nonDigitCharacter", 0, 1),
                           bad("12345678 012345675", "nonDigitCharacter", 8, 1),
                           bad("12345678901234567 ", "nonDigitCharacter", 17, 1),
                           bad("1a3b5", "nonDigitCharacter", 1, 1),
                           bad("x", "nonDigitCharacter", 0, 1),
                       });
}

TEST(LintCsum, ReportsAnEmptyComponentAsTooShort) { expectRows(lintCsum, {bad("", "tooShortForCheckDigit", 0, 0)}); }

// A wrong check digit names the right one (for the error message); other faults name none.
TEST(LintCsum, NamesTheRightCheckDigit) {
  EXPECT_EQ(lintCsum("12345673").expectedText(), "0");
  EXPECT_EQ(lintCsum("416000336109").expectedText(), "8");
  EXPECT_EQ(lintCsum("1").expectedText(), "0");
  EXPECT_EQ(lintCsum("1a3b5").expectedText(), "");
  EXPECT_EQ(lintCsum("12345670").expectedText(), "");
}

// The reason tokens lintCsum publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintCsum, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintCsum.publishedReasons(), (Tokens{"tooShortForCheckDigit", "nonDigitCharacter", "incorrectCheckDigit"}));
}

}  // namespace
}  // namespace codepayload::lint::test
