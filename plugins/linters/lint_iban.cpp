// iban: an International Bank Account Number (ISO 13616). Checked in the
// reference's order: at least 4 characters; an ISO 3166-1 alpha-2 country
// code; at most 34 characters; more than 10 characters; only 0-9 and A-Z
// (scanned from the 5th character to the end, then the first four); and the
// mod-97 checksum of the rearranged number (reported on the two check digits).
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

// The linter this one builds on, defined in its own file (no header lists
// the linters: linter_table.cpp registers them).
LintResult lintIso3166alpha2(std::string_view component);  // lint_iso3166alpha2.cpp

namespace {

constexpr std::size_t kIbanMinLength = 10;  // an IBAN is longer than this
constexpr std::size_t kIbanMaxLength = 34;

}  // namespace

LintResult lintIban(std::string_view component) {
  std::size_t size = component.size();
  if (size < 4) return fail(reason::kIbanTooShort, 0, size);
  if (!lintIso3166alpha2(component.substr(0, 2)).ok()) return fail(reason::kIllegalIbanCountryCode, 0, 2);
  if (size > kIbanMaxLength) return fail(reason::kIbanTooLong, 0, size);
  if (size <= kIbanMinLength) return fail(reason::kIbanTooShort, 0, size);
  unsigned checksum = 0;
  for (std::size_t step = 4; step < size + 4; ++step) {
    std::size_t pos = step < size ? step : step - size;
    char c = component[pos];
    if (support::isDigit(c)) {
      checksum = (checksum * 10 + support::digitValue(c)) % 97;
    } else if (support::isUpperLetter(c)) {
      checksum = (checksum * 100 + static_cast<unsigned>(c - 'A') + 10) % 97;
    } else {
      return fail(reason::kInvalidIbanCharacter, pos, 1);
    }
  }
  if (checksum != 1) return fail(reason::kIncorrectIbanChecksum, 2, 2);
  return kPass;
}

namespace {

// The sentence of each reason lintIban reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kIbanTooShort, "{part} is too short for an IBAN"},
    {reason::kIllegalIbanCountryCode, "{part} is not an IBAN country code"},
    {reason::kIbanTooLong, "{part} is too long for an IBAN (at most 34 characters)"},
    {reason::kInvalidIbanCharacter, "{part} is not allowed in an IBAN (capital letters and digits only)"},
    {reason::kIncorrectIbanChecksum, "the IBAN check digits {part} are wrong"},
};

}  // namespace

ReasonSentences ibanSentences() { return kSentences; }

}  // namespace codepayload::lint
