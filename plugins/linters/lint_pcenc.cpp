// pcenc: every '%' starts a "%hh" sequence of two hex digits (RFC 3986
// percent-encoding). A '%' with fewer than two characters after it is
// reported from the '%' to the end; a bad sequence over its three characters.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

namespace {

constexpr support::CharClass kHexDigit{"0123456789ABCDEFabcdef"};

}  // namespace

LintResult lintPcenc(std::string_view component) {
  for (std::size_t pos = 0; pos < component.size(); ++pos) {
    if (component[pos] != '%') continue;
    if (pos + 2 >= component.size()) return fail(reason::kInvalidPercentSequence, pos, component.size() - pos);
    if (!kHexDigit.contains(component[pos + 1]) || !kHexDigit.contains(component[pos + 2])) {
      return fail(reason::kInvalidPercentSequence, pos, 3);
    }
    pos += 2;
  }
  return kPass;
}

namespace {

// The sentence of each reason lintPcenc reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kInvalidPercentSequence, "{part} is not a percent-encoded character (% and two hexadecimal digits)"},
};

}  // namespace

ReasonSentences pcencSentences() { return kSentences; }

}  // namespace codepayload::lint
