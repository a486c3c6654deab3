#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintYymmdd{"yymmdd"};

TEST(LintYymmdd, AcceptsDates) {
  expectRows(lintYymmdd, {
                             pass("000606"),
                             pass("200131"),
                             pass("240229"),
                             pass("991231"),
                         });
}

TEST(LintYymmdd, ReportsDay00) {
  expectRows(lintYymmdd, {
                             bad("200600", "illegalDay", 4, 2),
                             bad("000100", "illegalDay", 4, 2),
                         });
}

TEST(LintYymmdd, ReportsTheYymmd0Faults) {
  expectRows(lintYymmdd, {
                             bad("", "dateTooShort", 0, 0),
                             bad("11111", "dateTooShort", 0, 5),
                             bad("1111111", "dateTooLong", 0, 7),
                             bad("2001x1", "nonDigitCharacter", 4, 1),
                             bad("200010", "illegalMonth", 2, 2),
                             bad("201300", "illegalMonth", 2, 2),
                             bad("200230", "illegalDay", 4, 2),
                             bad("230229", "illegalDay", 4, 2),
                             bad("200431", "illegalDay", 4, 2),
                         });
}

// The reason tokens lintYymmdd publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintYymmdd, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintYymmdd.publishedReasons(),
            (Tokens{"dateTooShort", "dateTooLong", "nonDigitCharacter", "illegalMonth", "illegalDay"}));
}

}  // namespace
}  // namespace codepayload::lint::test
