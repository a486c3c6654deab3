// zero: the component is one or more '0' characters; otherwise the whole
// component is at fault.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintZero(std::string_view component) {
  if (component.empty() || component.find_first_not_of('0') != std::string_view::npos) {
    return fail(reason::kNotZero, 0, component.size());
  }
  return kPass;
}

namespace {

// The sentence of each reason lintZero reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kNotZero, "{part} must be all zeros"},
};

}  // namespace

ReasonSentences zeroSentences() { return kSentences; }

}  // namespace codepayload::lint
