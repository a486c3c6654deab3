#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintHhmi{"hhmi"};

TEST(LintHhmi, AcceptsTimesOfDay) {
  expectRows(lintHhmi, {
                           pass("0000"),
                           pass("1200"),
                           pass("2359"),
                           pass("0059"),
                       });
}

TEST(LintHhmi, ReportsTheHourOrTheMinuteAtItsPosition) {
  expectRows(lintHhmi, {
                           bad("2400", "illegalHour", 0, 2),
                           bad("2460", "illegalHour", 0, 2),
                           bad("0060", "illegalMinute", 2, 2),
                           bad("2399", "illegalMinute", 2, 2),
                           bad("x000", "nonDigitCharacter", 0, 1),
                           bad("0x00", "nonDigitCharacter", 1, 1),
                           bad("00x0", "nonDigitCharacter", 2, 1),
                           bad("000x", "nonDigitCharacter", 3, 1),
                           bad("24x0", "illegalHour", 0, 2),
                       });
}

TEST(LintHhmi, ReportsOtherLengthsAsAWhole) {
  expectRows(lintHhmi, {
                           bad("", "hourWithMinuteTooShort", 0, 0),
                           bad("1", "hourWithMinuteTooShort", 0, 1),
                           bad("111", "hourWithMinuteTooShort", 0, 3),
                           bad("11111", "hourWithMinuteTooLong", 0, 5),
                       });
}

// The reason tokens lintHhmi publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintHhmi, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintHhmi.publishedReasons(), (Tokens{"hourWithMinuteTooShort", "hourWithMinuteTooLong", "nonDigitCharacter",
                                                 "illegalHour", "illegalMinute"}));
}

}  // namespace
}  // namespace codepayload::lint::test
