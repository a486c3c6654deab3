#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintGcppos1{"gcppos1"};

TEST(LintGcppos1, AcceptsFourLeadingDigits) {
  expectRows(lintGcppos1, {
                              pass("0123"),
                              pass("01234"),
                              pass("0123A"),
                              pass("9506000134352"),
                          });
}

TEST(LintGcppos1, ReportsComponentsShorterThanTheShortestGcp) {
  expectRows(lintGcppos1, {
                              bad("", "tooShortForGcp", 0, 0),
                              bad("0", "tooShortForGcp", 0, 1),
                              bad("012", "tooShortForGcp", 0, 3),
                              bad("AB", "tooShortForGcp", 0, 2),
                          });
}

TEST(LintGcppos1, ReportsTheFirstNonDigitInTheFirstFour) {
  expectRows(lintGcppos1, {
                              bad("A123", "invalidGcpPrefix", 0, 1),
                              bad("0A23", "invalidGcpPrefix", 1, 1),
                              bad("01A3", "invalidGcpPrefix", 2, 1),
                              bad("012AAA", "invalidGcpPrefix", 3, 1),
                              bad("0AAAAA", "invalidGcpPrefix", 1, 1),
                          });
}

// The reason tokens lintGcppos1 publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintGcppos1, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintGcppos1.publishedReasons(), (Tokens{"tooShortForGcp", "invalidGcpPrefix"}));
}

}  // namespace
}  // namespace codepayload::lint::test
