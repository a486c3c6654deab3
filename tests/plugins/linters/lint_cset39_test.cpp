#include "plugins/linters/linters.h"
#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

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

}  // namespace
}  // namespace codepayload::lint::test
