// hh: an hour of the day as two digits, 00 to 23.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintHh(std::string_view component) {
  if (component.size() != 2) {
    return fail(component.size() < 2 ? reason::kHourTooShort : reason::kHourTooLong, 0, component.size());
  }
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  if (support::twoDigitValue(component, 0) > 23) return fail(reason::kIllegalHour, 0, 2);
  return kPass;
}

namespace {

// The sentence of each reason lintHh reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kHourTooShort, "{part} is too short for an hour (HH)"},
    {reason::kHourTooLong, "{part} is too long for an hour (HH)"},
    sentence::kNonDigitCharacter,
    sentence::kIllegalHour,
};

}  // namespace

ReasonSentences hhSentences() { return kSentences; }

}  // namespace codepayload::lint
