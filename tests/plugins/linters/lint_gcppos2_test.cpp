#include "plugins/linters/linters.h"
#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

TEST(LintGcppos2, AcceptsFourDigitsAfterTheFirstCharacter) {
  expectRows(lintGcppos2, {
                              pass("I0123"),
                              pass("I01234"),
                              pass("I0123A"),
                              pass("09506000134352"),
                          });
}

TEST(LintGcppos2, ReportsShortComponents) {
  expectRows(lintGcppos2, {
                              bad("", "tooShortForGcp", 0, 0),
                              bad("I", "tooShortForGcp", 0, 1),
                              bad("I0", "tooShortForGcp", 1, 1),
                              bad("I012", "tooShortForGcp", 1, 3),
                          });
}

TEST(LintGcppos2, ReportsTheFirstNonDigitInThePrefix) {
  expectRows(lintGcppos2, {
                              bad("IA123", "invalidGcpPrefix", 1, 1),
                              bad("I0A23", "invalidGcpPrefix", 2, 1),
                              bad("I012AAA", "invalidGcpPrefix", 4, 1),
                              bad("00 123", "invalidGcpPrefix", 2, 1),
                          });
}

}  // namespace
}  // namespace codepayload::lint::test
