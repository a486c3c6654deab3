// yymmddhh: a date and hour as YYMMDDHH: the yymmdd checks on the first six
// digits, then an hour of 00-23. Named by dictionary releases before
// 2024-06-10 (AI 8008); the check is the reference's last real
// implementation (later releases kept only a stub).
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

// The linter this one builds on, defined in its own file (no header lists
// the linters: linter_table.cpp registers them).
LintResult lintYymmdd(std::string_view component);  // lint_yymmdd.cpp

LintResult lintYymmddhh(std::string_view component) {
  if (component.size() != 8) {
    return fail(component.size() < 8 ? reason::kDateWithHourTooShort : reason::kDateWithHourTooLong, 0,
                component.size());
  }
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  if (LintResult date = lintYymmdd(component.substr(0, 6)); !date.ok()) return date;
  if (support::twoDigitValue(component, 6) > 23) return fail(reason::kIllegalHour, 6, 2);
  return kPass;
}

namespace {

// The sentence of each reason lintYymmddhh reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kDateWithHourTooShort, "{part} is too short for a date with hour (YYMMDDHH)"},
    {reason::kDateWithHourTooLong, "{part} is too long for a date with hour (YYMMDDHH)"},
    sentence::kNonDigitCharacter,
    sentence::kIllegalMonth,
    sentence::kIllegalDay,
    sentence::kIllegalHour,
};

}  // namespace

ReasonSentences yymmddhhSentences() { return kSentences; }

}  // namespace codepayload::lint
