#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintYymmd0{"yymmd0"};

TEST(LintYymmd0, AcceptsDatesAndDay00) {
  expectRows(lintYymmd0, {
                             pass("000606"),
                             pass("250606"),
                             pass("990606"),
                             pass("200131"),
                             pass("200600"),
                             pass("201200"),
                         });
}

TEST(LintYymmd0, ChecksTheLengthOfEveryMonth) {
  expectRows(lintYymmd0, {
                             pass("210131"),
                             bad("210132", "illegalDay", 4, 2),
                             pass("210331"),
                             bad("210332", "illegalDay", 4, 2),
                             pass("210430"),
                             bad("210431", "illegalDay", 4, 2),
                             pass("210531"),
                             bad("210532", "illegalDay", 4, 2),
                             pass("210630"),
                             bad("210631", "illegalDay", 4, 2),
                             pass("210731"),
                             bad("210732", "illegalDay", 4, 2),
                             pass("210831"),
                             bad("210832", "illegalDay", 4, 2),
                             pass("210930"),
                             bad("210931", "illegalDay", 4, 2),
                             pass("211031"),
                             bad("211032", "illegalDay", 4, 2),
                             pass("211130"),
                             bad("211131", "illegalDay", 4, 2),
                             pass("211231"),
                             bad("211232", "illegalDay", 4, 2),
                             bad("211299", "illegalDay", 4, 2),
                         });
}

TEST(LintYymmd0, AcceptsFebruary29ExactlyWhenYyIsAMultipleOf4) {
  // YY 72-99 is 19YY and YY 00-71 is 20YY; 2000 is a leap year.
  expectRows(lintYymmd0, {
                             pass("000229"),
                             bad("000230", "illegalDay", 4, 2),
                             pass("040229"),
                             bad("040230", "illegalDay", 4, 2),
                             pass("240229"),
                             pass("680229"),
                             pass("720229"),
                             pass("960229"),
                             bad("210229", "illegalDay", 4, 2),
                             bad("230229", "illegalDay", 4, 2),
                             bad("710229", "illegalDay", 4, 2),
                             bad("730229", "illegalDay", 4, 2),
                             bad("990229", "illegalDay", 4, 2),
                             pass("210228"),
                         });
}

TEST(LintYymmd0, ReportsTheMonth) {
  expectRows(lintYymmd0, {
                             bad("200010", "illegalMonth", 2, 2),
                             bad("201310", "illegalMonth", 2, 2),
                             bad("209900", "illegalMonth", 2, 2),
                         });
}

TEST(LintYymmd0, ReportsLengthBeforeNonDigits) {
  expectRows(lintYymmd0, {
                             bad("", "dateTooShort", 0, 0),
                             bad("1", "dateTooShort", 0, 1),
                             bad("x1111", "dateTooShort", 0, 5),
                             bad("1111111", "dateTooLong", 0, 7),
                             bad("11111111", "dateTooLong", 0, 8),
                             bad("x00131", "nonDigitCharacter", 0, 1),
                             bad("200x31", "nonDigitCharacter", 3, 1),
                             bad("20013x", "nonDigitCharacter", 5, 1),
                         });
}

// The reason tokens lintYymmd0 publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintYymmd0, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintYymmd0.publishedReasons(),
            (Tokens{"dateTooShort", "dateTooLong", "nonDigitCharacter", "illegalMonth", "illegalDay"}));
}

}  // namespace
}  // namespace codepayload::lint::test
