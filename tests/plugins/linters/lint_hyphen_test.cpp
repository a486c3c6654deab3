#include "plugins/linters/linters.h"
#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

TEST(LintHyphen, AcceptsHyphensOnly) {
  expectRows(lintHyphen, {
                             pass("-"),
                             pass("--"),
                         });
}

TEST(LintHyphen, ReportsAnythingElseAsAWhole) {
  expectRows(lintHyphen, {
                             bad("", "notHyphen", 0, 0),
                             bad("X", "notHyphen", 0, 1),
                             bad("XX", "notHyphen", 0, 2),
                             bad("-X-", "notHyphen", 0, 3),
                             bad("--_", "notHyphen", 0, 3),
                         });
}

}  // namespace
}  // namespace codepayload::lint::test
