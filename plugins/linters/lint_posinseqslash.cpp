// posinseqslash: "<pos>/<end>", two runs of digits around one '/', neither
// starting with '0', the position not above the end (e.g. "3/12"). Any other
// shape is malformed as a whole.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintPosinseqslash(std::string_view component) {
  std::size_t size = component.size();
  std::size_t slash = support::firstNonDigit(component);
  if (slash == 0 || slash >= size || component[slash] != '/') {
    return fail(reason::kPositionInSequenceMalformed, 0, size);
  }
  std::string_view position = component.substr(0, slash);
  std::string_view end = component.substr(slash + 1);
  if (end.empty() || support::firstNonDigit(end) != end.size()) {
    return fail(reason::kPositionInSequenceMalformed, 0, size);
  }
  if (position.front() == '0') return fail(reason::kIllegalZeroPrefix, 0, position.size());
  if (end.front() == '0') return fail(reason::kIllegalZeroPrefix, slash + 1, end.size());
  // Neither has a leading zero, so a longer number is a larger one.
  bool exceeds = position.size() != end.size() ? position.size() > end.size() : position > end;
  if (exceeds) return fail(reason::kPositionExceedsEnd, 0, size);
  return kPass;
}

namespace {

// The sentence of each reason lintPosinseqslash reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kPositionInSequenceMalformed,
     "{part} must be a position and a last position separated by '/', without leading zeros (e.g. 3/12)"},
    sentence::kIllegalZeroPrefix,
    {reason::kPositionExceedsEnd, "the position is greater than the last position in {part}"},
};

}  // namespace

ReasonSentences posinseqslashSentences() { return kSentences; }

}  // namespace codepayload::lint
