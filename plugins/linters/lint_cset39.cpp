// cset39: every character is in GS1 AI encodable character set 39 (component type Y).
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

namespace {

constexpr support::CharClass kCset39{"#-/0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"};

}  // namespace

LintResult lintCset39(std::string_view component) {
  for (std::size_t pos = 0; pos < component.size(); ++pos) {
    if (!kCset39.contains(component[pos])) return fail(reason::kInvalidCharacter, pos, 1);
  }
  return kPass;
}

namespace {

// The sentence of each reason lintCset39 reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kInvalidCharacter,
};

}  // namespace

ReasonSentences cset39Sentences() { return kSentences; }

}  // namespace codepayload::lint
