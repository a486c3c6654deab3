// hasnondigit: the component contains at least one character that is not a
// digit; otherwise (including when empty) the whole component is at fault.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintHasnondigit(std::string_view component) {
  if (support::firstNonDigit(component) != component.size()) return kPass;
  return fail(reason::kRequiresNonDigitCharacter, 0, component.size());
}

namespace {

// The sentence of each reason lintHasnondigit reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kRequiresNonDigitCharacter,
     "{part} is all digits; it must contain at least one character that is not a digit"},
};

}  // namespace

ReasonSentences hasnondigitSentences() { return kSentences; }

}  // namespace codepayload::lint
