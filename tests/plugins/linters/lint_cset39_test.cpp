#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintCset39{"cset39"};

TEST(LintCset39, AcceptsEveryCset39Character) {
  expectRows(lintCset39, {
                             pass(""),
                             pass("#-/0123456789"),
                             pass("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                         });
}

TEST(LintCset39, ReportsTheFirstCharacterOutsideCset39) {
  expectRows(lintCset39, {
                             bad("_ABC", "invalidCharacter", 0, 1),
                             bad("AB_C", "invalidCharacter", 2, 1),
                             bad("ABCa", "invalidCharacter", 3, 1),
                             bad("!", "invalidCharacter", 0, 1),
                             bad("\"", "invalidCharacter", 0, 1),
                             bad("$", "invalidCharacter", 0, 1),
                             bad("+", "invalidCharacter", 0, 1),
                             bad(".", "invalidCharacter", 0, 1),
                             bad(":", "invalidCharacter", 0, 1),
                             bad("@", "invalidCharacter", 0, 1),
                             bad("[", "invalidCharacter", 0, 1),
                             bad(" ", "invalidCharacter", 0, 1),
                             bad("A1z", "invalidCharacter", 2, 1),
                         });
}

// The reason tokens lintCset39 publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintCset39, PublishesExactlyItsReasons) { EXPECT_EQ(lintCset39.publishedReasons(), (Tokens{"invalidCharacter"})); }

}  // namespace
}  // namespace codepayload::lint::test
