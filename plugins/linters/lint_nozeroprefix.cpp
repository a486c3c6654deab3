// nozeroprefix: an all-digit component that does not start with '0'. The
// leading zero is checked before the digits, as in the reference; an empty
// component passes.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintNozeroprefix(std::string_view component) {
  if (!component.empty() && component.front() == '0') return fail(reason::kIllegalZeroPrefix, 0, 1);
  return support::requireDigits(component);
}

namespace {

// The sentence of each reason lintNozeroprefix reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kIllegalZeroPrefix,
    sentence::kNonDigitCharacter,
};

}  // namespace

ReasonSentences nozeroprefixSentences() { return kSentences; }

}  // namespace codepayload::lint
