// yesno: the component is "0" (no) or "1" (yes).
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintYesno(std::string_view component) {
  if (component.size() != 1) return fail(reason::kNotZeroOrOne, 0, component.size());
  if (component[0] != '0' && component[0] != '1') return fail(reason::kNotZeroOrOne, 0, 1);
  return kPass;
}

namespace {

// The sentence of each reason lintYesno reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kNotZeroOrOne, "{part} must be 0 (no) or 1 (yes)"},
};

}  // namespace

ReasonSentences yesnoSentences() { return kSentences; }

}  // namespace codepayload::lint
