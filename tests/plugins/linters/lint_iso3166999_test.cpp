#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintIso3166999{"iso3166999"};

TEST(LintIso3166999, AcceptsCountryCodesAnd999) {
  expectRows(lintIso3166999, {
                                 pass("999"),
                                 pass("004"),
                                 pass("894"),
                             });
}

TEST(LintIso3166999, ReportsAnythingElseAsAWhole) {
  expectRows(lintIso3166999, {
                                 bad("", "notIso3166Or999", 0, 0),
                                 bad("9", "notIso3166Or999", 0, 1),
                                 bad("99", "notIso3166Or999", 0, 2),
                                 bad("000", "notIso3166Or999", 0, 3),
                                 bad("998", "notIso3166Or999", 0, 3),
                                 bad("9999", "notIso3166Or999", 0, 4),
                                 bad("_999", "notIso3166Or999", 0, 4),
                                 bad("AAA", "notIso3166Or999", 0, 3),
                             });
}

// The reason tokens lintIso3166999 publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintIso3166999, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintIso3166999.publishedReasons(), (Tokens{"notIso3166Or999"}));
}

}  // namespace
}  // namespace codepayload::lint::test
