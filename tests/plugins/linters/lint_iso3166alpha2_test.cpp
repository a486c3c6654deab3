#include "plugins/linters/linters.h"
#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

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

}  // namespace
}  // namespace codepayload::lint::test
