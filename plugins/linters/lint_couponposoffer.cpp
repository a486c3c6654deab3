// couponposoffer: a GS1 AI (8112) positive offer file coupon: format code
// (0 or 1), funder ID (VLI 0-6, then 6+VLI digits), 6-digit offer code and
// serial number (VLI 0-9, then 6+VLI digits), with nothing after it.
// A truncated field is reported from its start to the end of the data, or
// over the whole data when nothing of it is left.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintCouponposoffer(std::string_view component) {
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  std::size_t size = component.size();
  std::size_t pos = 0;

  if (pos == size) return fail(reason::kCouponMissingFormatCode, 0, size);
  if (component[pos] != '0' && component[pos] != '1') return fail(reason::kCouponInvalidFormatCode, pos, 1);

  if (++pos == size) return fail(reason::kCouponMissingFunderVli, 0, size);
  if (component[pos] > '6') return fail(reason::kCouponInvalidFunderLength, pos, 1);
  std::size_t fieldLength = support::digitValue(component[pos]) + 6;
  if (size - ++pos < fieldLength) return support::couponTruncated(reason::kCouponTruncatedFunder, pos, size);
  pos += fieldLength;

  if (size - pos < 6) return support::couponTruncated(reason::kCouponTruncatedOfferCode, pos, size);
  pos += 6;

  if (pos == size) return fail(reason::kCouponMissingSerialNumberVli, 0, size);
  fieldLength = support::digitValue(component[pos]) + 6;
  if (size - ++pos < fieldLength) return support::couponTruncated(reason::kCouponTruncatedSerialNumber, pos, size);
  pos += fieldLength;

  if (pos != size) return fail(reason::kCouponExcessData, pos, size - pos);
  return kPass;
}

namespace {

// The sentence of each reason lintCouponposoffer reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kNonDigitCharacter,
    {reason::kCouponMissingFormatCode, "the coupon has no format code"},
    {reason::kCouponInvalidFormatCode, "the coupon format code {part} must be 0 or 1"},
    {reason::kCouponMissingFunderVli, "the coupon ends where the length digit (VLI) of the funder should be"},
    {reason::kCouponInvalidFunderLength,
     "the length digit (VLI) of the coupon's funder {part} is not an allowed length"},
    {reason::kCouponTruncatedFunder, "the coupon's funder {where} is cut short"},
    sentence::kCouponTruncatedOfferCode,
    sentence::kCouponMissingSerialNumberVli,
    sentence::kCouponTruncatedSerialNumber,
    sentence::kCouponExcessData,
};

}  // namespace

ReasonSentences couponposofferSentences() { return kSentences; }

}  // namespace codepayload::lint
