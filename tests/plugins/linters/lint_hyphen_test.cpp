#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintHyphen{"hyphen"};

TEST(LintHyphen, AcceptsHyphensOnly) {
  expectRows(lintHyphen, {
                             pass("-"),
                             pass("--"),
                         });
}

TEST(LintHyphen, ReportsAnythingElseAsAWhole) {
  expectRows(lintHyphen, {
                             bad("", "notHyphen", 0, 0),
                             bad("X", "notHyphen", 0, 1),
                             bad("XX", "notHyphen", 0, 2),
                             bad("-X-", "notHyphen", 0, 3),
                             bad("--_", "notHyphen", 0, 3),
                         });
}

// The reason tokens lintHyphen publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintHyphen, PublishesExactlyItsReasons) { EXPECT_EQ(lintHyphen.publishedReasons(), (Tokens{"notHyphen"})); }

}  // namespace
}  // namespace codepayload::lint::test
