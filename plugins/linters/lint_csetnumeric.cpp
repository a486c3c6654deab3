// csetnumeric: every character is a digit (component type N).
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintCsetnumeric(std::string_view component) {
  std::size_t pos = support::firstNonDigit(component);
  if (pos != component.size()) return fail(reason::kInvalidCharacter, pos, 1);
  return kPass;
}

namespace {

// The sentence of each reason lintCsetnumeric reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kInvalidCharacter,
};

}  // namespace

ReasonSentences csetnumericSentences() { return kSentences; }

}  // namespace codepayload::lint
