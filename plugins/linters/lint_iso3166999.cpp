// iso3166999: an ISO 3166-1 numeric country code, or "999".
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

// The linter this one builds on, defined in its own file (no header lists
// the linters: linter_table.cpp registers them).
LintResult lintIso3166(std::string_view component);  // lint_iso3166.cpp

LintResult lintIso3166999(std::string_view component) {
  if (component == "999" || lintIso3166(component).ok()) return kPass;
  return fail(reason::kNotIso3166Or999, 0, component.size());
}

namespace {

// The sentence of each reason lintIso3166999 reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kNotIso3166Or999, "{part} is not an ISO 3166 numeric country code or 999"},
};

}  // namespace

ReasonSentences iso3166999Sentences() { return kSentences; }

}  // namespace codepayload::lint
