#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintMediatype{"mediatype"};

TEST(LintMediatype, AcceptsAssignedMediaTypes) {
  expectRows(lintMediatype, {
                                pass("01"),
                                pass("05"),
                                pass("10"),
                                pass("80"),
                                pass("90"),
                                pass("99"),
                            });
}

TEST(LintMediatype, ReportsAnythingElseAsAWhole) {
  expectRows(lintMediatype, {
                                bad("", "invalidMediaType", 0, 0),
                                bad("0", "invalidMediaType", 0, 1),
                                bad("00", "invalidMediaType", 0, 2),
                                bad("11", "invalidMediaType", 0, 2),
                                bad("50", "invalidMediaType", 0, 2),
                                bad("79", "invalidMediaType", 0, 2),
                                bad("000", "invalidMediaType", 0, 3),
                                bad("_01", "invalidMediaType", 0, 3),
                                bad("01_", "invalidMediaType", 0, 3),
                                bad("AA", "invalidMediaType", 0, 2),
                            });
}

// The reason tokens lintMediatype publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintMediatype, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintMediatype.publishedReasons(), (Tokens{"invalidMediaType"}));
}

}  // namespace
}  // namespace codepayload::lint::test
