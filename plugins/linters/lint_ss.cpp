// ss: a second of the minute as two digits, 00 to 59.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintSs(std::string_view component) {
  if (component.size() != 2) {
    return fail(component.size() < 2 ? reason::kSecondTooShort : reason::kSecondTooLong, 0, component.size());
  }
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  if (support::twoDigitValue(component, 0) > 59) return fail(reason::kIllegalSecond, 0, 2);
  return kPass;
}

namespace {

// The sentence of each reason lintSs reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kSecondTooShort, "{part} is too short for seconds (SS)"},
    {reason::kSecondTooLong, "{part} is too long for seconds (SS)"},
    sentence::kNonDigitCharacter,
    sentence::kIllegalSecond,
};

}  // namespace

ReasonSentences ssSentences() { return kSentences; }

}  // namespace codepayload::lint
