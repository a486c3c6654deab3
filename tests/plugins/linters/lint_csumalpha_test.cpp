#include <string>

#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintCsumalpha{"csumalpha"};

TEST(LintCsumalpha, AcceptsCorrectCheckPairs) {
  expectRows(lintCsumalpha, {
                                pass("22"),
                                pass("!22"),
                                pass("!!22"),
                                pass("1987654Ad4X4bL5ttr2310c2K"),
                                pass("12345678901234567890123NT"),
                                pass("ABC123xyzYL"),
                                pass("GS1-Test_(1)FA"),
                            });
}

TEST(LintCsumalpha, ReportsAWrongPairOnTheLastTwoCharacters) {
  expectRows(lintCsumalpha, {
                                bad("33", "incorrectCheckPair", 0, 2),
                                bad("1987654Ad4X4bL5ttr2310cXK", "incorrectCheckPair", 23, 2),
                                bad("1987654Ad4X4bL5ttr2310c2X", "incorrectCheckPair", 23, 2),
                                bad("12345678901234567890123 T", "incorrectCheckPair", 23, 2),
                                bad("12345678901234567890123N ", "incorrectCheckPair", 23, 2),
                                bad("ABC123xyzyl", "incorrectCheckPair", 9, 2),
                            });
}

TEST(LintCsumalpha, ReportsTheFirstDataCharacterOutsideCset82) {
  expectRows(lintCsumalpha, {
                                bad(" 2345678901234567890123NT", "invalidCset82Character", 0, 1),
                                bad("123456789 1234567890123NT", "invalidCset82Character", 9, 1),
                                bad("1234567890123456789012 NT", "invalidCset82Character", 22, 1),
                                bad("AB#CD@22", "invalidCset82Character", 2, 1),
                            });
}

TEST(LintCsumalpha, ReportsLengthsOutsideOneTo99) {
  expectRows(lintCsumalpha, {
                                bad("", "tooShortForCheckPair", 0, 0),
                                bad("2", "tooShortForCheckPair", 0, 1),
                            });
  std::string nines(97, '9');
  std::string zeds(97, 'z');
  std::string longest = nines + "V9";
  std::string maximumSum = zeds + "UA";
  std::string tooLong = nines + "9V9";
  expectRows(lintCsumalpha, {
                                pass(longest),
                                pass(maximumSum),
                                bad(tooLong, "tooLongForCheckPairImplementation", 0, 100),
                            });
}

// A wrong check pair names the right one (for the error message).
TEST(LintCsumalpha, NamesTheRightCheckPair) {
  EXPECT_EQ(lintCsumalpha("1987654Ad4X4bL5ttr2310c2L").expectedText(), "2K");
  EXPECT_EQ(lintCsumalpha("12").expectedText(), "22");
  EXPECT_EQ(lintCsumalpha("1987654Ad4X4bL5ttr2310c2K").expectedText(), "");
}

// The reason tokens lintCsumalpha publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintCsumalpha, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintCsumalpha.publishedReasons(), (Tokens{"tooLongForCheckPairImplementation", "tooShortForCheckPair",
                                                      "invalidCset82Character", "incorrectCheckPair"}));
}

}  // namespace
}  // namespace codepayload::lint::test
