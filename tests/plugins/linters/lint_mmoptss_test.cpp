#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintMmoptss{"mmoptss"};

TEST(LintMmoptss, AcceptsMinutesWithOptionalSeconds) {
  expectRows(lintMmoptss, {
                              pass("00"),
                              pass("59"),
                              pass("0000"),
                              pass("5900"),
                              pass("0059"),
                              pass("5959"),
                          });
}

TEST(LintMmoptss, ReportsTheMinuteOrTheSecond) {
  expectRows(lintMmoptss, {
                              bad("60", "illegalMinute", 0, 2),
                              bad("6000", "illegalMinute", 0, 2),
                              bad("6060", "illegalMinute", 0, 2),
                              bad("0060", "illegalSecond", 2, 2),
                          });
}

TEST(LintMmoptss, ReportsLengthThenNonDigits) {
  expectRows(lintMmoptss, {
                              bad("", "mmssInvalidLength", 0, 0),
                              bad("1", "mmssInvalidLength", 0, 1),
                              bad("111", "mmssInvalidLength", 0, 3),
                              bad("11111", "mmssInvalidLength", 0, 5),
                              bad("x0", "nonDigitCharacter", 0, 1),
                              bad("0x", "nonDigitCharacter", 1, 1),
                              bad("00x0", "nonDigitCharacter", 2, 1),
                              bad("000x", "nonDigitCharacter", 3, 1),
                          });
}

// The reason tokens lintMmoptss publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintMmoptss, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintMmoptss.publishedReasons(),
            (Tokens{"mmssInvalidLength", "nonDigitCharacter", "illegalMinute", "illegalSecond"}));
}

}  // namespace
}  // namespace codepayload::lint::test
