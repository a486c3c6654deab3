#include "plugins/linters/linters.h"
#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

TEST(LintWinding, AcceptsZeroOneAndNine) {
  expectRows(lintWinding, {
                              pass("0"),
                              pass("1"),
                              pass("9"),
                              bad("", "invalidWindingDirection", 0, 0),
                              bad("2", "invalidWindingDirection", 0, 1),
                              bad("8", "invalidWindingDirection", 0, 1),
                              bad(":", "invalidWindingDirection", 0, 1),
                              bad("01", "invalidWindingDirection", 0, 2),
                          });
}

}  // namespace
}  // namespace codepayload::lint::test
