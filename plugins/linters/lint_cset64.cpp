// cset64: GS1 AI encodable character set 64, the file- and URI-safe base64
// alphabet (component type Z), with optional '=' padding. As the reference
// does, up to two trailing '=' are accepted when the whole length is a
// multiple of 3; any other run of trailing '=' is reported as a padding
// fault over that run, and an '=' elsewhere is an invalid character.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

namespace {

constexpr support::CharClass kCset64{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"};

}  // namespace

LintResult lintCset64(std::string_view component) {
  std::size_t pads = 0;
  while (pads < component.size() && component[component.size() - pads - 1] == '=') ++pads;
  std::size_t dataLength = component.size() - pads;
  if (pads > 2 || (pads > 0 && component.size() % 3 != 0)) {
    return fail(reason::kInvalidCset64Padding, dataLength, pads);
  }
  for (std::size_t pos = 0; pos < dataLength; ++pos) {
    if (!kCset64.contains(component[pos])) return fail(reason::kInvalidCharacter, pos, 1);
  }
  return kPass;
}

namespace {

// The sentence of each reason lintCset64 reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kInvalidCharacter,
    {reason::kInvalidCset64Padding,
     "the padding {part} is not allowed there: at most two '=' may end the value, making its length a multiple of 3"},
};

}  // namespace

ReasonSentences cset64Sentences() { return kSentences; }

}  // namespace codepayload::lint
