#include "plugins/linters/linters.h"
#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

using namespace std::literals;

TEST(LintCsetnumeric, AcceptsDigitsOnly) {
  expectRows(lintCsetnumeric, {
                                  pass(""),
                                  pass("0"),
                                  pass("0123456789"),
                                  bad("/", "invalidCharacter", 0, 1),
                                  bad(":", "invalidCharacter", 0, 1),
                                  bad("a0", "invalidCharacter", 0, 1),
                                  bad("0a", "invalidCharacter", 1, 1),
                                  bad("12 34x", "invalidCharacter", 2, 1),
                                  bad("1\0"sv, "invalidCharacter", 1, 1),
                              });
}

}  // namespace
}  // namespace codepayload::lint::test
