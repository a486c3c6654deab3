// mediatype: an AIDC media type, two digits: 01-10 (ICCBBA assignments) or
// 80-99 (ICCBBA local or national use).
#include <cstdint>

#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

namespace {

constexpr std::uint8_t kMediaTypes[] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99,
};
static_assert(std::is_sorted(std::begin(kMediaTypes), std::end(kMediaTypes)));

}  // namespace

LintResult lintMediatype(std::string_view component) {
  if (component.size() != 2 || !support::isDigit(component[0]) || !support::isDigit(component[1]) ||
      !support::inSortedTable(kMediaTypes, static_cast<std::uint8_t>(support::twoDigitValue(component, 0)))) {
    return fail(reason::kInvalidMediaType, 0, component.size());
  }
  return kPass;
}

namespace {

// The sentence of each reason lintMediatype reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kInvalidMediaType, "{part} is not a GS1 media type code"},
};

}  // namespace

ReasonSentences mediatypeSentences() { return kSentences; }

}  // namespace codepayload::lint
