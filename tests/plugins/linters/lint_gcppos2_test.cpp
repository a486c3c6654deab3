#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintGcppos2{"gcppos2"};

TEST(LintGcppos2, AcceptsFourDigitsAfterTheFirstCharacter) {
  expectRows(lintGcppos2, {
                              pass("I0123"),
                              pass("I01234"),
                              pass("I0123A"),
                              pass("09506000134352"),
                          });
}

TEST(LintGcppos2, ReportsShortComponents) {
  expectRows(lintGcppos2, {
                              bad("", "tooShortForGcp", 0, 0),
                              bad("I", "tooShortForGcp", 0, 1),
                              bad("I0", "tooShortForGcp", 1, 1),
                              bad("I012", "tooShortForGcp", 1, 3),
                          });
}

TEST(LintGcppos2, ReportsTheFirstNonDigitInThePrefix) {
  expectRows(lintGcppos2, {
                              bad("IA123", "invalidGcpPrefix", 1, 1),
                              bad("I0A23", "invalidGcpPrefix", 2, 1),
                              bad("I012AAA", "invalidGcpPrefix", 4, 1),
                              bad("00 123", "invalidGcpPrefix", 2, 1),
                          });
}

// The reason tokens lintGcppos2 publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintGcppos2, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintGcppos2.publishedReasons(), (Tokens{"tooShortForGcp", "invalidGcpPrefix"}));
}

}  // namespace
}  // namespace codepayload::lint::test
