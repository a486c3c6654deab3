// gcppos1: the component starts with a GS1 Company Prefix. Without a GCP
// lookup service (none is configured here) the reference only checks that
// the component is at least as long as the shortest GCP (4 digits) and that
// those first 4 characters are digits. Also registered as `key`.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

namespace {

constexpr std::size_t kGcpMinLength = 4;

}  // namespace

LintResult lintGcppos1(std::string_view component) {
  if (component.size() < kGcpMinLength) return fail(reason::kTooShortForGcp, 0, component.size());
  for (std::size_t pos = 0; pos < kGcpMinLength; ++pos) {
    if (!support::isDigit(component[pos])) return fail(reason::kInvalidGcpPrefix, pos, 1);
  }
  return kPass;
}

namespace {

// The sentence of each reason lintGcppos1 reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kTooShortForGcp,
    sentence::kInvalidGcpPrefix,
};

}  // namespace

ReasonSentences gcppos1Sentences() { return kSentences; }

}  // namespace codepayload::lint
