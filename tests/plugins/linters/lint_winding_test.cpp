#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintWinding{"winding"};

TEST(LintWinding, AcceptsZeroOneAndNine) {
  expectRows(lintWinding, {
                              pass("0"),
                              pass("1"),
                              pass("9"),
                              bad("", "invalidWindingDirection", 0, 0),
                              bad("2", "invalidWindingDirection", 0, 1),
                              bad("8", "invalidWindingDirection", 0, 1),
                              bad(":", "invalidWindingDirection", 0, 1),
                              bad("01", "invalidWindingDirection", 0, 2),
                          });
}

// The reason tokens lintWinding publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintWinding, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintWinding.publishedReasons(), (Tokens{"invalidWindingDirection"}));
}

}  // namespace
}  // namespace codepayload::lint::test
