// winding: a roll's winding direction, "0" (face out), "1" (face in) or "9"
// (undefined).
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintWinding(std::string_view component) {
  if (component.size() != 1) return fail(reason::kInvalidWindingDirection, 0, component.size());
  char c = component[0];
  if (c != '0' && c != '1' && c != '9') return fail(reason::kInvalidWindingDirection, 0, 1);
  return kPass;
}

namespace {

// The sentence of each reason lintWinding reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kInvalidWindingDirection, "{part} must be 0 (face out), 1 (face in) or 9 (undefined)"},
};

}  // namespace

ReasonSentences windingSentences() { return kSentences; }

}  // namespace codepayload::lint
