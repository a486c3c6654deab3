// iso5218: an ISO/IEC 5218 biological sex code, "0" (not known), "1" (male),
// "2" (female) or "9" (not applicable).
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintIso5218(std::string_view component) {
  if (component.size() != 1) return fail(reason::kInvalidBiologicalSexCode, 0, component.size());
  char c = component[0];
  if (c != '0' && c != '1' && c != '2' && c != '9') return fail(reason::kInvalidBiologicalSexCode, 0, 1);
  return kPass;
}

namespace {

// The sentence of each reason lintIso5218 reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kInvalidBiologicalSexCode, "{part} must be an ISO/IEC 5218 code: 0, 1, 2 or 9"},
};

}  // namespace

ReasonSentences iso5218Sentences() { return kSentences; }

}  // namespace codepayload::lint
