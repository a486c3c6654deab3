#include "plugins/linters/linters.h"
#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

TEST(LintYesno, AcceptsZeroAndOne) {
  expectRows(lintYesno, {
                            pass("0"),
                            pass("1"),
                            bad("", "notZeroOrOne", 0, 0),
                            bad("2", "notZeroOrOne", 0, 1),
                            bad("/", "notZeroOrOne", 0, 1),
                            bad("Y", "notZeroOrOne", 0, 1),
                            bad("01", "notZeroOrOne", 0, 2),
                        });
}

}  // namespace
}  // namespace codepayload::lint::test
