// couponcode: a North American coupon code as carried in GS1 AI (8110).
// Mandatory: primary GS1 Company Prefix (VLI 0-6, then 6+VLI digits), 6-digit
// offer code, save value (VLI 1-5), primary purchase requirement (VLI 1-5),
// its code (0-4 or 9) and 3-digit family code. Then optional fields, each
// at most once and in this order: 1 (additional rules code 0-3, second
// purchase requirement, code, family code and GCP with VLI 0-6 or 9 = none),
// 2 (third purchase: requirement, code, family code, GCP), 3 (expiration
// date YYMMDD), 4 (start date YYMMDD, not after the expiration date),
// 5 (serial number, VLI 0-9 then 6+VLI digits), 6 (retailer GCP or GLN,
// VLI 1-7 then 6+VLI digits), 9 (save value code 0/1/2/5/6, applies-to-item
// 0-2, store coupon flag, don't-multiply flag 0/1); nothing may follow.
//
// Spans follow the reference: a missing field marks the whole data; a
// truncated field marks from its start to the end (the whole data when
// nothing of it is left); a bad single digit marks that digit; a bad date
// its six digits; a start date after the expiration date marks
// "3<expiry>4<start>". The reference also runs the gcppos1 check on each
// GCP; on an all-digit GCP of 6 or more digits it cannot fail without a GCP
// lookup, so it is not repeated here.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

// The linter this one builds on, defined in its own file (no header lists
// the linters: linter_table.cpp registers them).
LintResult lintYymmdd(std::string_view component);  // lint_yymmdd.cpp

namespace {

// Reads an all-digit coupon from left to right.
class CouponReader {
 public:
  explicit CouponReader(std::string_view data) : data_(data) {}

  std::size_t pos() const { return pos_; }

  // Consumes the optional-field indicator `indicator` if it comes next.
  bool takeIndicator(char indicator) {
    if (pos_ == data_.size() || data_[pos_] != indicator) return false;
    ++pos_;
    return true;
  }

  // A field of `count` digits.
  LintResult fixed(std::size_t count, const char* truncated) {
    if (data_.size() - pos_ < count) return support::couponTruncated(truncated, pos_, data_.size());
    pos_ += count;
    return kPass;
  }

  // One digit from `allowed`.
  LintResult code(std::string_view allowed, const char* missing, const char* invalid) {
    if (pos_ == data_.size()) return fail(missing, 0, data_.size());
    if (allowed.find(data_[pos_]) == std::string_view::npos) return fail(invalid, pos_, 1);
    ++pos_;
    return kPass;
  }

  // One digit of any value.
  LintResult anyDigit(const char* missing) {
    if (pos_ == data_.size()) return fail(missing, 0, data_.size());
    ++pos_;
    return kPass;
  }

  // A length digit of any value, then that many plus `extra` digits.
  LintResult anyLengthPrefixed(std::size_t extra, const char* missing, const char* truncated) {
    if (pos_ == data_.size()) return fail(missing, 0, data_.size());
    std::size_t count = support::digitValue(data_[pos_]) + extra;
    ++pos_;
    return fixed(count, truncated);
  }

  // A length digit from `allowed`, then that many plus `extra` digits; the
  // digit `none` (if given) means the field is absent.
  LintResult lengthPrefixed(std::string_view allowed, std::size_t extra, const char* missing, const char* invalid,
                            const char* truncated, char none = '\0') {
    if (pos_ == data_.size()) return fail(missing, 0, data_.size());
    char vli = data_[pos_];
    if (vli != none && allowed.find(vli) == std::string_view::npos) return fail(invalid, pos_, 1);
    ++pos_;
    return fixed(vli == none ? 0 : support::digitValue(vli) + extra, truncated);
  }

  // A YYMMDD date field.
  LintResult date(const char* tooShort, const char* invalid) {
    if (LintResult length = fixed(6, tooShort); !length.ok()) return length;
    if (!lintYymmdd(data_.substr(pos_ - 6, 6)).ok()) return fail(invalid, pos_ - 6, 6);
    return kPass;
  }

 private:
  std::string_view data_;
  std::size_t pos_ = 0;
};

constexpr std::string_view kGcpVli = "0123456";
constexpr std::string_view kOneToFive = "12345";
constexpr std::string_view kRequirementCode = "012349";

LintResult primaryPurchase(CouponReader& in) {
  using namespace reason;
  if (LintResult r = in.lengthPrefixed(kGcpVli, 6, kCouponMissingGcpVli, kCouponInvalidGcpLength, kCouponTruncatedGcp);
      !r.ok()) {
    return r;
  }
  if (LintResult r = in.fixed(6, kCouponTruncatedOfferCode); !r.ok()) return r;
  if (LintResult r = in.lengthPrefixed(kOneToFive, 0, kCouponMissingSaveValueVli, kCouponInvalidSaveValueLength,
                                       kCouponTruncatedSaveValue);
      !r.ok()) {
    return r;
  }
  if (LintResult r =
          in.lengthPrefixed(kOneToFive, 0, kCouponMissing1stPurchaseRequirementVli,
                            kCouponInvalid1stPurchaseRequirementLength, kCouponTruncated1stPurchaseRequirement);
      !r.ok()) {
    return r;
  }
  if (LintResult r =
          in.code(kRequirementCode, kCouponMissing1stPurchaseRequirementCode, kCouponInvalid1stPurchaseRequirementCode);
      !r.ok()) {
    return r;
  }
  return in.fixed(3, kCouponTruncated1stPurchaseFamilyCode);
}

LintResult secondPurchase(CouponReader& in) {
  using namespace reason;
  if (LintResult r =
          in.code("0123", kCouponMissingAdditionalPurchaseRulesCode, kCouponInvalidAdditionalPurchaseRulesCode);
      !r.ok()) {
    return r;
  }
  if (LintResult r =
          in.lengthPrefixed(kOneToFive, 0, kCouponMissing2ndPurchaseRequirementVli,
                            kCouponInvalid2ndPurchaseRequirementLength, kCouponTruncated2ndPurchaseRequirement);
      !r.ok()) {
    return r;
  }
  if (LintResult r =
          in.code(kRequirementCode, kCouponMissing2ndPurchaseRequirementCode, kCouponInvalid2ndPurchaseRequirementCode);
      !r.ok()) {
    return r;
  }
  if (LintResult r = in.fixed(3, kCouponTruncated2ndPurchaseFamilyCode); !r.ok()) return r;
  return in.lengthPrefixed(kGcpVli, 6, kCouponMissing2ndPurchaseGcpVli, kCouponInvalid2ndPurchaseGcpLength,
                           kCouponTruncated2ndPurchaseGcp, '9');
}

LintResult thirdPurchase(CouponReader& in) {
  using namespace reason;
  if (LintResult r =
          in.lengthPrefixed(kOneToFive, 0, kCouponMissing3rdPurchaseRequirementVli,
                            kCouponInvalid3rdPurchaseRequirementLength, kCouponTruncated3rdPurchaseRequirement);
      !r.ok()) {
    return r;
  }
  if (LintResult r =
          in.code(kRequirementCode, kCouponMissing3rdPurchaseRequirementCode, kCouponInvalid3rdPurchaseRequirementCode);
      !r.ok()) {
    return r;
  }
  if (LintResult r = in.fixed(3, kCouponTruncated3rdPurchaseFamilyCode); !r.ok()) return r;
  return in.lengthPrefixed(kGcpVli, 6, kCouponMissing3rdPurchaseGcpVli, kCouponInvalid3rdPurchaseGcpLength,
                           kCouponTruncated3rdPurchaseGcp, '9');
}

LintResult miscellaneous(CouponReader& in) {
  using namespace reason;
  if (LintResult r = in.code("01256", kCouponMissingSaveValueCode, kCouponInvalidSaveValueCode); !r.ok()) return r;
  if (LintResult r = in.code("012", kCouponMissingSaveValueAppliesToItem, kCouponInvalidSaveValueAppliesToItem);
      !r.ok()) {
    return r;
  }
  if (LintResult r = in.anyDigit(kCouponMissingStoreCouponFlag); !r.ok()) return r;
  return in.code("01", kCouponMissingDontMultiplyFlag, kCouponInvalidDontMultiplyFlag);
}

}  // namespace

LintResult lintCouponcode(std::string_view component) {
  using namespace reason;
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  CouponReader in(component);
  if (LintResult r = primaryPurchase(in); !r.ok()) return r;
  if (in.takeIndicator('1')) {
    if (LintResult r = secondPurchase(in); !r.ok()) return r;
  }
  if (in.takeIndicator('2')) {
    if (LintResult r = thirdPurchase(in); !r.ok()) return r;
  }
  std::size_t expiryPos = 0;
  bool hasExpiry = false;
  if (in.takeIndicator('3')) {
    if (LintResult r = in.date(kCouponTooShortForExpirationDate, kCouponInvalidExpirationDate); !r.ok()) return r;
    expiryPos = in.pos() - 6;
    hasExpiry = true;
  }
  if (in.takeIndicator('4')) {
    if (LintResult r = in.date(kCouponTooShortForStartDate, kCouponInvalidStartDate); !r.ok()) return r;
    std::size_t startPos = in.pos() - 6;
    // Like the reference, the two YYMMDD dates are compared digit by digit.
    if (hasExpiry && component.substr(startPos, 6) > component.substr(expiryPos, 6)) {
      return fail(kCouponExpirationBeforeStart, expiryPos - 1, 14);
    }
  }
  if (in.takeIndicator('5')) {
    if (LintResult r = in.anyLengthPrefixed(6, kCouponMissingSerialNumberVli, kCouponTruncatedSerialNumber); !r.ok()) {
      return r;
    }
  }
  if (in.takeIndicator('6')) {
    if (LintResult r = in.lengthPrefixed("1234567", 6, kCouponMissingRetailerGcpOrGlnVli,
                                         kCouponInvalidRetailerGcpOrGlnLength, kCouponTruncatedRetailerGcpOrGln);
        !r.ok()) {
      return r;
    }
  }
  if (in.takeIndicator('9')) {
    if (LintResult r = miscellaneous(in); !r.ok()) return r;
  }
  if (in.pos() != component.size()) return fail(kCouponExcessData, in.pos(), component.size() - in.pos());
  return kPass;
}

namespace {

// The sentence of each reason lintCouponcode reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kNonDigitCharacter,
    {reason::kCouponMissingGcpVli, "the coupon ends where the length digit (VLI) of the GS1 Company Prefix should be"},
    {reason::kCouponInvalidGcpLength,
     "the length digit (VLI) of the coupon's GS1 Company Prefix {part} is not an allowed length"},
    {reason::kCouponTruncatedGcp, "the coupon's GS1 Company Prefix {where} is cut short"},
    sentence::kCouponTruncatedOfferCode,
    {reason::kCouponMissingSaveValueVli, "the coupon ends where the length digit (VLI) of the save value should be"},
    {reason::kCouponInvalidSaveValueLength,
     "the length digit (VLI) of the coupon's save value {part} is not an allowed length"},
    {reason::kCouponTruncatedSaveValue, "the coupon's save value {where} is cut short"},
    {reason::kCouponMissing1stPurchaseRequirementVli,
     "the coupon ends where the length digit (VLI) of the first purchase requirement should be"},
    {reason::kCouponInvalid1stPurchaseRequirementLength,
     "the length digit (VLI) of the coupon's first purchase requirement {part} is not an allowed length"},
    {reason::kCouponTruncated1stPurchaseRequirement, "the coupon's first purchase requirement {where} is cut short"},
    {reason::kCouponMissing1stPurchaseRequirementCode,
     "the coupon ends where the first purchase requirement code should be"},
    {reason::kCouponInvalid1stPurchaseRequirementCode,
     "the coupon's first purchase requirement code {part} is not an allowed value"},
    {reason::kCouponTruncated1stPurchaseFamilyCode, "the coupon's first purchase family code {where} is cut short"},
    {reason::kCouponMissingAdditionalPurchaseRulesCode,
     "the coupon ends where the additional purchase rules code should be"},
    {reason::kCouponInvalidAdditionalPurchaseRulesCode,
     "the coupon's additional purchase rules code {part} is not an allowed value"},
    {reason::kCouponMissing2ndPurchaseRequirementVli,
     "the coupon ends where the length digit (VLI) of the second purchase requirement should be"},
    {reason::kCouponInvalid2ndPurchaseRequirementLength,
     "the length digit (VLI) of the coupon's second purchase requirement {part} is not an allowed length"},
    {reason::kCouponTruncated2ndPurchaseRequirement, "the coupon's second purchase requirement {where} is cut short"},
    {reason::kCouponMissing2ndPurchaseRequirementCode,
     "the coupon ends where the second purchase requirement code should be"},
    {reason::kCouponInvalid2ndPurchaseRequirementCode,
     "the coupon's second purchase requirement code {part} is not an allowed value"},
    {reason::kCouponTruncated2ndPurchaseFamilyCode, "the coupon's second purchase family code {where} is cut short"},
    {reason::kCouponMissing2ndPurchaseGcpVli,
     "the coupon ends where the length digit (VLI) of the second purchase GS1 Company Prefix should be"},
    {reason::kCouponInvalid2ndPurchaseGcpLength,
     "the length digit (VLI) of the coupon's second purchase GS1 Company Prefix {part} is not an allowed length"},
    {reason::kCouponTruncated2ndPurchaseGcp, "the coupon's second purchase GS1 Company Prefix {where} is cut short"},
    {reason::kCouponMissing3rdPurchaseRequirementVli,
     "the coupon ends where the length digit (VLI) of the third purchase requirement should be"},
    {reason::kCouponInvalid3rdPurchaseRequirementLength,
     "the length digit (VLI) of the coupon's third purchase requirement {part} is not an allowed length"},
    {reason::kCouponTruncated3rdPurchaseRequirement, "the coupon's third purchase requirement {where} is cut short"},
    {reason::kCouponMissing3rdPurchaseRequirementCode,
     "the coupon ends where the third purchase requirement code should be"},
    {reason::kCouponInvalid3rdPurchaseRequirementCode,
     "the coupon's third purchase requirement code {part} is not an allowed value"},
    {reason::kCouponTruncated3rdPurchaseFamilyCode, "the coupon's third purchase family code {where} is cut short"},
    {reason::kCouponMissing3rdPurchaseGcpVli,
     "the coupon ends where the length digit (VLI) of the third purchase GS1 Company Prefix should be"},
    {reason::kCouponInvalid3rdPurchaseGcpLength,
     "the length digit (VLI) of the coupon's third purchase GS1 Company Prefix {part} is not an allowed length"},
    {reason::kCouponTruncated3rdPurchaseGcp, "the coupon's third purchase GS1 Company Prefix {where} is cut short"},
    {reason::kCouponTooShortForExpirationDate, "the coupon's expiration date {where} is cut short"},
    {reason::kCouponInvalidExpirationDate, "the coupon's expiration date {part} is not a valid date (YYMMDD)"},
    {reason::kCouponTooShortForStartDate, "the coupon's start date {where} is cut short"},
    {reason::kCouponInvalidStartDate, "the coupon's start date {part} is not a valid date (YYMMDD)"},
    {reason::kCouponExpirationBeforeStart, "the coupon's expiration date {part} is before its start date"},
    sentence::kCouponMissingSerialNumberVli,
    sentence::kCouponTruncatedSerialNumber,
    {reason::kCouponMissingRetailerGcpOrGlnVli,
     "the coupon ends where the length digit (VLI) of the retailer GS1 Company Prefix or GLN should be"},
    {reason::kCouponInvalidRetailerGcpOrGlnLength,
     "the length digit (VLI) of the coupon's retailer GS1 Company Prefix or GLN {part} is not an allowed length"},
    {reason::kCouponTruncatedRetailerGcpOrGln, "the coupon's retailer GS1 Company Prefix or GLN {where} is cut short"},
    {reason::kCouponMissingSaveValueCode, "the coupon ends where the save value code should be"},
    {reason::kCouponInvalidSaveValueCode, "the coupon's save value code {part} is not an allowed value"},
    {reason::kCouponMissingSaveValueAppliesToItem,
     "the coupon ends where the save-value-applies-to-item indicator should be"},
    {reason::kCouponInvalidSaveValueAppliesToItem,
     "the coupon's save-value-applies-to-item indicator {part} is not an allowed value"},
    {reason::kCouponMissingStoreCouponFlag, "the coupon ends where the store coupon flag should be"},
    {reason::kCouponMissingDontMultiplyFlag, "the coupon ends where the don't-multiply flag should be"},
    {reason::kCouponInvalidDontMultiplyFlag, "the coupon's don't-multiply flag {part} must be 0 or 1"},
    sentence::kCouponExcessData,
};

}  // namespace

ReasonSentences couponcodeSentences() { return kSentences; }

}  // namespace codepayload::lint
