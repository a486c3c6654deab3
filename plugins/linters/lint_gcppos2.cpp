// gcppos2: the component starts with a GS1 Company Prefix from its second
// character (e.g. after the indicator digit of a GTIN-14). A component of
// fewer than 2 characters is too short as a whole; otherwise gcppos1 is
// applied to the rest and its span shifted by one. Also registered as `keyoff1`.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

// The linter this one builds on, defined in its own file (no header lists
// the linters: linter_table.cpp registers them).
LintResult lintGcppos1(std::string_view component);  // lint_gcppos1.cpp

LintResult lintGcppos2(std::string_view component) {
  if (component.size() < 2) return fail(reason::kTooShortForGcp, 0, component.size());
  LintResult rest = lintGcppos1(component.substr(1));
  if (!rest.ok()) ++rest.offset;
  return rest;
}

namespace {

// The sentence of each reason lintGcppos2 reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kTooShortForGcp,
    sentence::kInvalidGcpPrefix,
};

}  // namespace

ReasonSentences gcppos2Sentences() { return kSentences; }

}  // namespace codepayload::lint
