// yyyymmdd: a date as YYYYMMDD with the Gregorian leap-year rule; DD may not
// be 00.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintYyyymmdd(std::string_view component) {
  if (component.size() != 8) {
    return fail(component.size() < 8 ? reason::kDateTooShort : reason::kDateTooLong, 0, component.size());
  }
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  unsigned year = support::twoDigitValue(component, 0) * 100 + support::twoDigitValue(component, 2);
  if (LintResult date = support::checkMonthAndDay(component, 4, year); !date.ok()) return date;
  if (component[6] == '0' && component[7] == '0') return fail(reason::kIllegalDay, 6, 2);
  return kPass;
}

namespace {

// The sentence of each reason lintYyyymmdd reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kDateTooShort, sentence::kDateTooLong, sentence::kNonDigitCharacter,
    sentence::kIllegalMonth, sentence::kIllegalDay,
};

}  // namespace

ReasonSentences yyyymmddSentences() { return kSentences; }

}  // namespace codepayload::lint
