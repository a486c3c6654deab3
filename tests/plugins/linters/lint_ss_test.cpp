#include "plugins/linters/linters.h"
#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

TEST(LintSs, AcceptsSeconds00To59) {
  expectRows(lintSs, {
                         pass("00"),
                         pass("45"),
                         pass("59"),
                         bad("60", "illegalSecond", 0, 2),
                         bad("61", "illegalSecond", 0, 2),
                     });
}

TEST(LintSs, ReportsLengthThenNonDigits) {
  expectRows(lintSs, {
                         bad("", "secondTooShort", 0, 0),
                         bad("1", "secondTooShort", 0, 1),
                         bad("111", "secondTooLong", 0, 3),
                         bad("1111", "secondTooLong", 0, 4),
                         bad("x0", "nonDigitCharacter", 0, 1),
                         bad("0x", "nonDigitCharacter", 1, 1),
                     });
}

}  // namespace
}  // namespace codepayload::lint::test
