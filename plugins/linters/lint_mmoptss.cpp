// mmoptss: minutes with optional seconds, MM or MMSS (each 00-59). Named by
// dictionary releases before 2024-06-10 (AI 8008); the check is the
// reference's last real implementation (later releases kept only a stub).
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintMmoptss(std::string_view component) {
  if (component.size() != 2 && component.size() != 4) {
    return fail(reason::kMmssInvalidLength, 0, component.size());
  }
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  if (support::twoDigitValue(component, 0) > 59) return fail(reason::kIllegalMinute, 0, 2);
  if (component.size() == 4 && support::twoDigitValue(component, 2) > 59) {
    return fail(reason::kIllegalSecond, 2, 2);
  }
  return kPass;
}

namespace {

// The sentence of each reason lintMmoptss reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kMmssInvalidLength, "{part} must be minutes (MM) or minutes and seconds (MMSS)"},
    sentence::kNonDigitCharacter,
    sentence::kIllegalMinute,
    sentence::kIllegalSecond,
};

}  // namespace

ReasonSentences mmoptssSentences() { return kSentences; }

}  // namespace codepayload::lint
