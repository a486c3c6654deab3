#include "plugins/linters/linters.h"
#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

TEST(LintIso5218, AcceptsTheFourSexCodes) {
  expectRows(lintIso5218, {
                              pass("0"),
                              pass("1"),
                              pass("2"),
                              pass("9"),
                              bad("", "invalidBiologicalSexCode", 0, 0),
                              bad("3", "invalidBiologicalSexCode", 0, 1),
                              bad("8", "invalidBiologicalSexCode", 0, 1),
                              bad("/", "invalidBiologicalSexCode", 0, 1),
                              bad("M", "invalidBiologicalSexCode", 0, 1),
                              bad("01", "invalidBiologicalSexCode", 0, 2),
                          });
}

}  // namespace
}  // namespace codepayload::lint::test
