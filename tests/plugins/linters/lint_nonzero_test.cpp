#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintNonzero{"nonzero"};

TEST(LintNonzero, AcceptsNonZeroValues) {
  expectRows(lintNonzero, {
                              pass("1"),
                              pass("01"),
                              pass("10"),
                              pass("0009"),
                              pass("9000"),
                              pass("01234567890"),
                          });
}

TEST(LintNonzero, ReportsZeroValuesAsAWhole) {
  expectRows(lintNonzero, {
                              bad("", "illegalZeroValue", 0, 0),
                              bad("0", "illegalZeroValue", 0, 1),
                              bad("000", "illegalZeroValue", 0, 3),
                          });
}

TEST(LintNonzero, ReportsTheFirstNonDigitBeforeTheValue) {
  expectRows(lintNonzero, {
                              bad("A999", "nonDigitCharacter", 0, 1),
                              bad("9A99", "nonDigitCharacter", 1, 1),
                              bad("999A", "nonDigitCharacter", 3, 1),
                              bad("00A0", "nonDigitCharacter", 2, 1),
                          });
}

// The reason tokens lintNonzero publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintNonzero, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintNonzero.publishedReasons(), (Tokens{"nonDigitCharacter", "illegalZeroValue"}));
}

}  // namespace
}  // namespace codepayload::lint::test
