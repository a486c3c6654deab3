#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintYyyymmdd{"yyyymmdd"};

TEST(LintYyyymmdd, AcceptsDates) {
  expectRows(lintYyyymmdd, {
                               pass("20000606"),
                               pass("19750606"),
                               pass("20201231"),
                               pass("00010101"),
                           });
}

TEST(LintYyyymmdd, AppliesTheGregorianLeapYearRule) {
  expectRows(lintYyyymmdd, {
                               pass("20240229"),
                               bad("20240230", "illegalDay", 6, 2),
                               pass("20000229"),
                               bad("20000230", "illegalDay", 6, 2),
                               pass("24000229"),
                               pass("19960229"),
                               bad("19000229", "illegalDay", 6, 2),
                               bad("21000229", "illegalDay", 6, 2),
                               bad("20230229", "illegalDay", 6, 2),
                               pass("21000228"),
                           });
}

TEST(LintYyyymmdd, ReportsMonthDayAndDay00) {
  expectRows(lintYyyymmdd, {
                               bad("20200010", "illegalMonth", 4, 2),
                               bad("20201310", "illegalMonth", 4, 2),
                               bad("20200132", "illegalDay", 6, 2),
                               bad("20200431", "illegalDay", 6, 2),
                               bad("20201131", "illegalDay", 6, 2),
                               bad("20200600", "illegalDay", 6, 2),
                           });
}

TEST(LintYyyymmdd, ReportsLengthBeforeNonDigits) {
  expectRows(lintYyyymmdd, {
                               bad("", "dateTooShort", 0, 0),
                               bad("111111", "dateTooShort", 0, 6),
                               bad("1111111", "dateTooShort", 0, 7),
                               bad("111111111", "dateTooLong", 0, 9),
                               bad("x0200131", "nonDigitCharacter", 0, 1),
                               bad("2020x131", "nonDigitCharacter", 4, 1),
                               bad("2020013x", "nonDigitCharacter", 7, 1),
                           });
}

// The reason tokens lintYyyymmdd publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintYyyymmdd, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintYyyymmdd.publishedReasons(),
            (Tokens{"dateTooShort", "dateTooLong", "nonDigitCharacter", "illegalMonth", "illegalDay"}));
}

}  // namespace
}  // namespace codepayload::lint::test
