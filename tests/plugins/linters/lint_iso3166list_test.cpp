#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintIso3166list{"iso3166list"};

TEST(LintIso3166list, AcceptsConcatenatedCountryCodes) {
  expectRows(lintIso3166list, {
                                  pass("004"),
                                  pass("894"),
                                  pass("004894"),
                                  pass("004270894"),
                              });
}

TEST(LintIso3166list, ReportsABadCodeOverItsThreeDigits) {
  expectRows(lintIso3166list, {
                                  bad("000", "notIso3166", 0, 3),
                                  bad("0000", "notIso3166", 0, 3),
                                  bad("000000", "notIso3166", 0, 3),
                                  bad("894000", "notIso3166", 3, 3),
                                  bad("8940000", "notIso3166", 3, 3),
                                  bad("004894AAA", "notIso3166", 6, 3),
                              });
}

TEST(LintIso3166list, ReportsLeftoverCharactersToTheEnd) {
  expectRows(lintIso3166list, {
                                  bad("", "notIso3166", 0, 0),
                                  bad("0", "notIso3166", 0, 1),
                                  bad("00", "notIso3166", 0, 2),
                                  bad("8940", "notIso3166", 3, 1),
                                  bad("89400", "notIso3166", 3, 2),
                                  bad("00489400", "notIso3166", 6, 2),
                              });
}

// The reason tokens lintIso3166list publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintIso3166list, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintIso3166list.publishedReasons(), (Tokens{"notIso3166"}));
}

}  // namespace
}  // namespace codepayload::lint::test
