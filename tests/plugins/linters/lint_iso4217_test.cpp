#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintIso4217{"iso4217"};

TEST(LintIso4217, AcceptsListedCurrencyCodes) {
  expectRows(lintIso4217, {
                              pass("008"),
                              pass("036"),
                              pass("826"),
                              pass("840"),
                              pass("924"),
                              pass("978"),
                              pass("999"),
                          });
}

TEST(LintIso4217, ReportsAnythingElseAsAWhole) {
  expectRows(lintIso4217, {
                              bad("", "notIso4217", 0, 0),
                              bad("0", "notIso4217", 0, 1),
                              bad("00", "notIso4217", 0, 2),
                              bad("000", "notIso4217", 0, 3),
                              bad("004", "notIso4217", 0, 3),
                              bad("694", "notIso4217", 0, 3),
                              bad("998", "notIso4217", 0, 3),
                              bad("0000", "notIso4217", 0, 4),
                              bad("_999", "notIso4217", 0, 4),
                              bad("EUR", "notIso4217", 0, 3),
                          });
}

// The reason tokens lintIso4217 publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintIso4217, PublishesExactlyItsReasons) { EXPECT_EQ(lintIso4217.publishedReasons(), (Tokens{"notIso4217"})); }

}  // namespace
}  // namespace codepayload::lint::test
