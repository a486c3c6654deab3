// yesno: the component is "0" (no) or "1" (yes).
#include "plugins/linters/lint_support.h"
#include "plugins/linters/linters.h"

namespace codepayload::lint {

LintResult lintYesno(std::string_view component) {
  if (component.size() != 1) return fail(reason::kNotZeroOrOne, 0, component.size());
  if (component[0] != '0' && component[0] != '1') return fail(reason::kNotZeroOrOne, 0, 1);
  return kPass;
}

}  // namespace codepayload::lint
