#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintIso5218{"iso5218"};

TEST(LintIso5218, AcceptsTheFourSexCodes) {
  expectRows(lintIso5218, {
                              pass("0"),
                              pass("1"),
                              pass("2"),
                              pass("9"),
                              bad("", "invalidBiologicalSexCode", 0, 0),
                              bad("3", "invalidBiologicalSexCode", 0, 1),
                              bad("8", "invalidBiologicalSexCode", 0, 1),
                              bad("/", "invalidBiologicalSexCode", 0, 1),
                              bad("M", "invalidBiologicalSexCode", 0, 1),
                              bad("01", "invalidBiologicalSexCode", 0, 2),
                          });
}

// The reason tokens lintIso5218 publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintIso5218, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintIso5218.publishedReasons(), (Tokens{"invalidBiologicalSexCode"}));
}

}  // namespace
}  // namespace codepayload::lint::test
