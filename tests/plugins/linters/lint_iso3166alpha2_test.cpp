#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintIso3166alpha2{"iso3166alpha2"};

TEST(LintIso3166alpha2, AcceptsListedAlpha2Codes) {
  expectRows(lintIso3166alpha2, {
                                    pass("AD"),
                                    pass("BE"),
                                    pass("DE"),
                                    pass("GB"),
                                    pass("SS"),
                                    pass("US"),
                                    pass("ZW"),
                                });
}

TEST(LintIso3166alpha2, ReportsAnythingElseAsAWhole) {
  expectRows(lintIso3166alpha2, {
                                    bad("", "notIso3166Alpha2", 0, 0),
                                    bad("A", "notIso3166Alpha2", 0, 1),
                                    bad("AA", "notIso3166Alpha2", 0, 2),
                                    bad("AC", "notIso3166Alpha2", 0, 2),
                                    bad("UK", "notIso3166Alpha2", 0, 2),
                                    bad("XX", "notIso3166Alpha2", 0, 2),
                                    bad("ZZ", "notIso3166Alpha2", 0, 2),
                                    bad("de", "notIso3166Alpha2", 0, 2),
                                    bad("AAA", "notIso3166Alpha2", 0, 3),
                                    bad("_AD", "notIso3166Alpha2", 0, 3),
                                    bad("AD_", "notIso3166Alpha2", 0, 3),
                                    bad("12", "notIso3166Alpha2", 0, 2),
                                });
}

// The reason tokens lintIso3166alpha2 publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintIso3166alpha2, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintIso3166alpha2.publishedReasons(), (Tokens{"notIso3166Alpha2"}));
}

}  // namespace
}  // namespace codepayload::lint::test
