#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintYymmddhh{"yymmddhh"};

TEST(LintYymmddhh, AcceptsDatesWithHours) {
  expectRows(lintYymmddhh, {
                               pass("00060600"),
                               pass("00060623"),
                               pass("24022912"),
                           });
}

TEST(LintYymmddhh, ReportsTheDateOrTheHour) {
  expectRows(lintYymmddhh, {
                               bad("20001000", "illegalMonth", 2, 2),
                               bad("20093100", "illegalDay", 4, 2),
                               bad("20090000", "illegalDay", 4, 2),
                               bad("23022912", "illegalDay", 4, 2),
                               bad("00060624", "illegalHour", 6, 2),
                               bad("00130624", "illegalMonth", 2, 2),
                           });
}

TEST(LintYymmddhh, ReportsLengthThenNonDigits) {
  expectRows(lintYymmddhh, {
                               bad("", "dateWithHourTooShort", 0, 0),
                               bad("111111", "dateWithHourTooShort", 0, 6),
                               bad("1111111", "dateWithHourTooShort", 0, 7),
                               bad("111111111", "dateWithHourTooLong", 0, 9),
                               bad("200131x0", "nonDigitCharacter", 6, 1),
                               bad("2001310x", "nonDigitCharacter", 7, 1),
                               bad("2x013100", "nonDigitCharacter", 1, 1),
                           });
}

// The reason tokens lintYymmddhh publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintYymmddhh, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintYymmddhh.publishedReasons(), (Tokens{"dateWithHourTooShort", "dateWithHourTooLong", "nonDigitCharacter",
                                                     "illegalMonth", "illegalDay", "illegalHour"}));
}

}  // namespace
}  // namespace codepayload::lint::test
