#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintHasnondigit{"hasnondigit"};

TEST(LintHasnondigit, AcceptsAnyNonDigit) {
  expectRows(lintHasnondigit, {
                                  pass("/"),
                                  pass(":"),
                                  pass("A"),
                                  pass("/123456789"),
                                  pass("012345678:"),
                                  pass("1A1"),
                              });
}

TEST(LintHasnondigit, ReportsAllDigitComponentsAsAWhole) {
  expectRows(lintHasnondigit, {
                                  bad("", "requiresNonDigitCharacter", 0, 0),
                                  bad("0", "requiresNonDigitCharacter", 0, 1),
                                  bad("9", "requiresNonDigitCharacter", 0, 1),
                                  bad("0123456789", "requiresNonDigitCharacter", 0, 10),
                              });
}

// The reason tokens lintHasnondigit publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintHasnondigit, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintHasnondigit.publishedReasons(), (Tokens{"requiresNonDigitCharacter"}));
}

}  // namespace
}  // namespace codepayload::lint::test
