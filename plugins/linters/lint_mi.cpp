// mi: a minute of the hour as two digits, 00 to 59.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintMi(std::string_view component) {
  if (component.size() != 2) {
    return fail(component.size() < 2 ? reason::kMinuteTooShort : reason::kMinuteTooLong, 0, component.size());
  }
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  if (support::twoDigitValue(component, 0) > 59) return fail(reason::kIllegalMinute, 0, 2);
  return kPass;
}

namespace {

// The sentence of each reason lintMi reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kMinuteTooShort, "{part} is too short for minutes (MI)"},
    {reason::kMinuteTooLong, "{part} is too long for minutes (MI)"},
    sentence::kNonDigitCharacter,
    sentence::kIllegalMinute,
};

}  // namespace

ReasonSentences miSentences() { return kSentences; }

}  // namespace codepayload::lint
