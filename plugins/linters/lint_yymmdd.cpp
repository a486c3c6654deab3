// yymmdd: a date as YYMMDD: the yymmd0 checks, and DD may not be 00.
#include "plugins/linters/lint_support.h"
#include "plugins/linters/linters.h"

namespace codepayload::lint {

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
