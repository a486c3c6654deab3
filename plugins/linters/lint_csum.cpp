// csum: the last digit is the GS1 mod-10 check digit of the digits before it
// (weights 3, 1, 3, ... from the rightmost data digit). Non-digits are
// reported at the first (leftmost) one, as the reference does.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintCsum(std::string_view component) {
  if (component.empty()) return fail(reason::kTooShortForCheckDigit, 0, 0);
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  std::size_t checkPos = component.size() - 1;
  unsigned sum = 0;
  unsigned weight = (component.size() % 2 == 0) ? 3 : 1;
  for (std::size_t pos = 0; pos < checkPos; ++pos) {
    sum += weight * support::digitValue(component[pos]);
    weight = 4 - weight;
  }
  unsigned expected = (10 - sum % 10) % 10;
  if (support::digitValue(component[checkPos]) != expected) {
    const char digit = static_cast<char>('0' + expected);
    return failExpecting(reason::kIncorrectCheckDigit, checkPos, 1, std::string_view(&digit, 1));
  }
  return kPass;
}

namespace {

// The sentence of each reason lintCsum reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kTooShortForCheckDigit, "the value is empty, so it has no check digit"},
    sentence::kNonDigitCharacter,
    {reason::kIncorrectCheckDigit, "the check digit {part} is wrong; the right check digit is {expected}"},
};

}  // namespace

ReasonSentences csumSentences() { return kSentences; }

}  // namespace codepayload::lint
