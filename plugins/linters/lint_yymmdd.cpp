// yymmdd: a date as YYMMDD: the yymmd0 checks, and DD may not be 00.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

// The linter this one builds on, defined in its own file (no header lists
// the linters: linter_table.cpp registers them).
LintResult lintYymmd0(std::string_view component);  // lint_yymmd0.cpp

LintResult lintYymmdd(std::string_view component) {
  if (LintResult date = lintYymmd0(component); !date.ok()) return date;
  if (component[4] == '0' && component[5] == '0') return fail(reason::kIllegalDay, 4, 2);
  return kPass;
}

namespace {

// The sentence of each reason lintYymmdd reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kDateTooShort, sentence::kDateTooLong, sentence::kNonDigitCharacter,
    sentence::kIllegalMonth, sentence::kIllegalDay,
};

}  // namespace

ReasonSentences yymmddSentences() { return kSentences; }

}  // namespace codepayload::lint
