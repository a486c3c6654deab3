// iso3166list: one or more concatenated ISO 3166-1 numeric country codes.
// A bad code is reported over its three digits; characters left over after
// the last full code, or an empty component, are reported from there to the
// end. Named by dictionary releases before 2024-06-10 (AIs 423, 425); the
// check is the reference's last real implementation (later releases kept
// only a stub).
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

// The linter this one builds on, defined in its own file (no header lists
// the linters: linter_table.cpp registers them).
LintResult lintIso3166(std::string_view component);  // lint_iso3166.cpp

LintResult lintIso3166list(std::string_view component) {
  std::size_t pos = 0;
  for (; pos + 3 <= component.size(); pos += 3) {
    if (!lintIso3166(component.substr(pos, 3)).ok()) return fail(reason::kNotIso3166, pos, 3);
  }
  if (pos != component.size() || component.empty()) return fail(reason::kNotIso3166, pos, component.size() - pos);
  return kPass;
}

namespace {

// The sentence of each reason lintIso3166list reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kNotIso3166,
};

}  // namespace

ReasonSentences iso3166listSentences() { return kSentences; }

}  // namespace codepayload::lint
