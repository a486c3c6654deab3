// hhmi: a time of day as HHMI (hour 00-23, minute 00-59): the hh and mi
// checks on the two halves. Also registered as `hhmm`, its name before the
// 2025-01-30 dictionary release (the reference's hhmm performs the same checks).
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

// The linters this one builds on, defined in their own files (no header
// lists the linters: linter_table.cpp registers them).
LintResult lintHh(std::string_view component);  // lint_hh.cpp
LintResult lintMi(std::string_view component);  // lint_mi.cpp

LintResult lintHhmi(std::string_view component) {
  if (component.size() != 4) {
    return fail(component.size() < 4 ? reason::kHourWithMinuteTooShort : reason::kHourWithMinuteTooLong, 0,
                component.size());
  }
  if (LintResult hour = lintHh(component.substr(0, 2)); !hour.ok()) return hour;
  LintResult minute = lintMi(component.substr(2, 2));
  if (!minute.ok()) minute.offset += 2;
  return minute;
}

namespace {

// The sentence of each reason lintHhmi reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kHourWithMinuteTooShort, "{part} is too short for a time (HHMM)"},
    {reason::kHourWithMinuteTooLong, "{part} is too long for a time (HHMM)"},
    sentence::kNonDigitCharacter,
    sentence::kIllegalHour,
    sentence::kIllegalMinute,
};

}  // namespace

ReasonSentences hhmiSentences() { return kSentences; }

}  // namespace codepayload::lint
