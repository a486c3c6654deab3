// csetnumeric: every character is a digit (component type N).
#include "plugins/linters/lint_support.h"
#include "plugins/linters/linters.h"

namespace codepayload::lint {

LintResult lintCsetnumeric(std::string_view component) {
  std::size_t pos = support::firstNonDigit(component);
  if (pos != component.size()) return fail(reason::kInvalidCharacter, pos, 1);
  return kPass;
}

}  // namespace codepayload::lint
