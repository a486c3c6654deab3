// longitude: the longitude of a WGS84 coordinate as 10 digits, 0000000000 to
// 3600000000 (degrees + 180, in units of 10^-7).
#include <cstdint>

#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintLongitude(std::string_view component) {
  if (component.size() != 10) return fail(reason::kLongitudeInvalidLength, 0, component.size());
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  std::uint64_t value = 0;
  for (char c : component) value = value * 10 + support::digitValue(c);
  if (value > 3600000000u) return fail(reason::kInvalidLongitude, 0, 10);
  return kPass;
}

namespace {

// The sentence of each reason lintLongitude reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kLongitudeInvalidLength, "a longitude must be 10 digits: {part}"},
    sentence::kNonDigitCharacter,
    {reason::kInvalidLongitude, "the longitude {part} is above 3600000000 (180 degrees east)"},
};

}  // namespace

ReasonSentences longitudeSentences() { return kSentences; }

}  // namespace codepayload::lint
