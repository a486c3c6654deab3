// cset82: every character is in GS1 AI encodable character set 82 (component type X).
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

namespace {

constexpr support::CharClass kCset82{
    "!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"};

}  // namespace

LintResult lintCset82(std::string_view component) {
  for (std::size_t pos = 0; pos < component.size(); ++pos) {
    if (!kCset82.contains(component[pos])) return fail(reason::kInvalidCharacter, pos, 1);
  }
  return kPass;
}

namespace {

// The sentence of each reason lintCset82 reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kInvalidCharacter,
};

}  // namespace

ReasonSentences cset82Sentences() { return kSentences; }

}  // namespace codepayload::lint
