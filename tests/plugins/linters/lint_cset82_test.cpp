#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintCset82{"cset82"};

using namespace std::literals;

TEST(LintCset82, AcceptsEveryCset82Character) {
  expectRows(lintCset82, {
                             pass(""),
                             pass("!\"%&'()*+,-./0123456789:;<=>?"),
                             pass("ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"),
                         });
}

TEST(LintCset82, ReportsTheFirstCharacterOutsideCset82) {
  expectRows(lintCset82, {
                             bad(" ABC", "invalidCharacter", 0, 1),
                             bad("AB C", "invalidCharacter", 2, 1),
                             bad("ABC#", "invalidCharacter", 3, 1),
                             bad("$", "invalidCharacter", 0, 1),
                             bad("@", "invalidCharacter", 0, 1),
                             bad("[", "invalidCharacter", 0, 1),
                             bad("\\", "invalidCharacter", 0, 1),
                             bad("]", "invalidCharacter", 0, 1),
                             bad("^", "invalidCharacter", 0, 1),
                             bad("`", "invalidCharacter", 0, 1),
                             bad("{", "invalidCharacter", 0, 1),
                             bad("|", "invalidCharacter", 0, 1),
                             bad("}", "invalidCharacter", 0, 1),
                             bad("~", "invalidCharacter", 0, 1),
                             bad("A\x7f", "invalidCharacter", 1, 1),
                             bad("A\xc3\xa9", "invalidCharacter", 1, 1),
                             bad("A\0B"sv, "invalidCharacter", 1, 1),
                         });
}

// The reason tokens lintCset82 publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintCset82, PublishesExactlyItsReasons) { EXPECT_EQ(lintCset82.publishedReasons(), (Tokens{"invalidCharacter"})); }

}  // namespace
}  // namespace codepayload::lint::test
