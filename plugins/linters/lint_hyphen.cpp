// hyphen: the component is one or more '-' characters; otherwise the whole
// component is at fault.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintHyphen(std::string_view component) {
  if (component.empty() || component.find_first_not_of('-') != std::string_view::npos) {
    return fail(reason::kNotHyphen, 0, component.size());
  }
  return kPass;
}

namespace {

// The sentence of each reason lintHyphen reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kNotHyphen, "{part} must be a hyphen (-)"},
};

}  // namespace

ReasonSentences hyphenSentences() { return kSentences; }

}  // namespace codepayload::lint
