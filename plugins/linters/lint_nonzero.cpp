// nonzero: an all-digit component whose value is not zero. A non-digit is
// reported first; an all-zero (or empty) component is at fault as a whole.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintNonzero(std::string_view component) {
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  if (component.find_first_not_of('0') == std::string_view::npos) {
    return fail(reason::kIllegalZeroValue, 0, component.size());
  }
  return kPass;
}

namespace {

// The sentence of each reason lintNonzero reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kNonDigitCharacter,
    {reason::kIllegalZeroValue, "{part} must not be zero"},
};

}  // namespace

ReasonSentences nonzeroSentences() { return kSentences; }

}  // namespace codepayload::lint
