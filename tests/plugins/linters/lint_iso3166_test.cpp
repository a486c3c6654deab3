#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintIso3166{"iso3166"};

TEST(LintIso3166, AcceptsListedNumericCodes) {
  expectRows(lintIso3166, {
                              pass("004"),
                              pass("008"),
                              pass("250"),
                              pass("276"),
                              pass("826"),
                              pass("840"),
                              pass("894"),
                          });
}

TEST(LintIso3166, ReportsAnythingElseAsAWhole) {
  expectRows(lintIso3166, {
                              bad("", "notIso3166", 0, 0),
                              bad("0", "notIso3166", 0, 1),
                              bad("00", "notIso3166", 0, 2),
                              bad("000", "notIso3166", 0, 3),
                              bad("001", "notIso3166", 0, 3),
                              bad("005", "notIso3166", 0, 3),
                              bad("895", "notIso3166", 0, 3),
                              bad("999", "notIso3166", 0, 3),
                              bad("0000", "notIso3166", 0, 4),
                              bad("_894", "notIso3166", 0, 4),
                              bad("894_", "notIso3166", 0, 4),
                              bad("AAA", "notIso3166", 0, 3),
                              bad("8 4", "notIso3166", 0, 3),
                          });
}

// The reason tokens lintIso3166 publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintIso3166, PublishesExactlyItsReasons) { EXPECT_EQ(lintIso3166.publishedReasons(), (Tokens{"notIso3166"})); }

}  // namespace
}  // namespace codepayload::lint::test
