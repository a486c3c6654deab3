#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintPackagetype{"packagetype"};

TEST(LintPackagetype, AcceptsListedPackageTypeCodes) {
  expectRows(lintPackagetype, {
                                  pass("1A"),
                                  pass("200"),
                                  pass("8"),
                                  pass("9"),
                                  pass("APE"),
                                  pass("BX"),
                                  pass("PX"),
                                  pass("X3"),
                                  pass("X20"),
                                  pass("ZZ"),
                              });
}

TEST(LintPackagetype, ReportsAnythingElseAsAWhole) {
  expectRows(lintPackagetype, {
                                  bad("", "invalidPackageType", 0, 0),
                                  bad("0", "invalidPackageType", 0, 1),
                                  bad("00", "invalidPackageType", 0, 2),
                                  bad("1C", "invalidPackageType", 0, 2),
                                  bad("bx", "invalidPackageType", 0, 2),
                                  bad("X21", "invalidPackageType", 0, 3),
                                  bad("_1A", "invalidPackageType", 0, 3),
                                  bad("1A_", "invalidPackageType", 0, 3),
                                  bad("APEX", "invalidPackageType", 0, 4),
                              });
}

// The reason tokens lintPackagetype publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintPackagetype, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintPackagetype.publishedReasons(), (Tokens{"invalidPackageType"}));
}

}  // namespace
}  // namespace codepayload::lint::test
