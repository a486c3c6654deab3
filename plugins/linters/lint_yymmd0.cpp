// yymmd0: a date as YYMMDD where DD may be 00 (day not given). The reference
// expands YY with a fixed horizon (its CURRENT_YEAR 21: YY 72-99 is 19YY,
// YY 00-71 is 20YY) and applies the Gregorian leap-year rule to the full
// year, so February 29 is valid exactly when YY is a multiple of 4.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

namespace {

constexpr unsigned fullYear(unsigned yy) { return yy >= 72 ? 1900 + yy : 2000 + yy; }

}  // namespace

LintResult lintYymmd0(std::string_view component) {
  if (component.size() != 6) {
    return fail(component.size() < 6 ? reason::kDateTooShort : reason::kDateTooLong, 0, component.size());
  }
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  return support::checkMonthAndDay(component, 2, fullYear(support::twoDigitValue(component, 0)));
}

namespace {

// The sentence of each reason lintYymmd0 reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kDateTooShort, sentence::kDateTooLong, sentence::kNonDigitCharacter,
    sentence::kIllegalMonth, sentence::kIllegalDay,
};

}  // namespace

ReasonSentences yymmd0Sentences() { return kSentences; }

}  // namespace codepayload::lint
