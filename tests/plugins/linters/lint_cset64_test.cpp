#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintCset64{"cset64"};

TEST(LintCset64, AcceptsTheBase64UrlAlphabet) {
  expectRows(lintCset64, {
                             pass(""),
                             pass("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                             pass("abcdefghijklmnopqrstuvwxyz"),
                             pass("0123456789-_"),
                         });
}

TEST(LintCset64, ReportsTheFirstCharacterOutsideTheAlphabet) {
  expectRows(lintCset64, {
                             bad(" ABC", "invalidCharacter", 0, 1),
                             bad("AB C", "invalidCharacter", 2, 1),
                             bad("ABC+", "invalidCharacter", 3, 1),
                             bad("/", "invalidCharacter", 0, 1),
                             bad(".", "invalidCharacter", 0, 1),
                             bad("~", "invalidCharacter", 0, 1),
                         });
}

TEST(LintCset64, AcceptsUpToTwoPadsWhenTheLengthIsAMultipleOfThree) {
  expectRows(lintCset64, {
                             pass("1"),
                             pass("12"),
                             pass("123"),
                             pass("12="),
                             pass("1=="),
                             pass("ABCDE="),
                             pass("ABCD=="),
                         });
}

TEST(LintCset64, ReportsBadPaddingOverTheTrailingRun) {
  expectRows(lintCset64, {
                             bad("=", "invalidCset64Padding", 0, 1),
                             bad("===", "invalidCset64Padding", 0, 3),
                             bad("123=", "invalidCset64Padding", 3, 1),
                             bad("12==", "invalidCset64Padding", 2, 2),
                             bad("1===", "invalidCset64Padding", 1, 3),
                             bad("1234=", "invalidCset64Padding", 4, 1),
                             bad("12====", "invalidCset64Padding", 2, 4),
                         });
}

TEST(LintCset64, ReportsAnInnerPadAsAnInvalidCharacter) {
  expectRows(lintCset64, {
                             bad("=23", "invalidCharacter", 0, 1),
                             bad("1=3", "invalidCharacter", 1, 1),
                             bad("12=4", "invalidCharacter", 2, 1),
                             bad("A=B==", "invalidCset64Padding", 3, 2),
                             bad("A=C=", "invalidCset64Padding", 3, 1),
                             bad("A=B=C=", "invalidCharacter", 1, 1),
                         });
}

// The reason tokens lintCset64 publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintCset64, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintCset64.publishedReasons(), (Tokens{"invalidCharacter", "invalidCset64Padding"}));
}

}  // namespace
}  // namespace codepayload::lint::test
