// latitude: the latitude of a WGS84 coordinate as 10 digits, 0000000000 to
// 1800000000 (degrees + 90, in units of 10^-7).
#include <cstdint>

#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintLatitude(std::string_view component) {
  if (component.size() != 10) return fail(reason::kLatitudeInvalidLength, 0, component.size());
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  std::uint64_t value = 0;
  for (char c : component) value = value * 10 + support::digitValue(c);
  if (value > 1800000000u) return fail(reason::kInvalidLatitude, 0, 10);
  return kPass;
}

namespace {

// The sentence of each reason lintLatitude reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kLatitudeInvalidLength, "a latitude must be 10 digits: {part}"},
    sentence::kNonDigitCharacter,
    {reason::kInvalidLatitude, "the latitude {part} is above 1800000000 (90 degrees north)"},
};

}  // namespace

ReasonSentences latitudeSentences() { return kSentences; }

}  // namespace codepayload::lint
