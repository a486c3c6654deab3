// Reason tokens of the built-in linters: one stable camelCase token per
// failure the GS1 reference linters report (gs1syntaxdictionary.h error
// codes). Tokens are published in API error args: never rename or reuse one.
// The four character-set checks share the engine's format reason
// `invalidCharacter`.
#pragma once

namespace codepayload::lint::reason {

// Character sets
inline constexpr const char* kInvalidCharacter = "invalidCharacter";
inline constexpr const char* kInvalidCset64Padding = "invalidCset64Padding";
inline constexpr const char* kNonDigitCharacter = "nonDigitCharacter";
inline constexpr const char* kInvalidCset82Character = "invalidCset82Character";
inline constexpr const char* kRequiresNonDigitCharacter = "requiresNonDigitCharacter";
inline constexpr const char* kNotHyphen = "notHyphen";

// Check characters
inline constexpr const char* kTooShortForCheckDigit = "tooShortForCheckDigit";
inline constexpr const char* kIncorrectCheckDigit = "incorrectCheckDigit";
inline constexpr const char* kTooShortForCheckPair = "tooShortForCheckPair";
inline constexpr const char* kTooLongForCheckPairImplementation = "tooLongForCheckPairImplementation";
inline constexpr const char* kIncorrectCheckPair = "incorrectCheckPair";

// GS1 Company Prefix
inline constexpr const char* kTooShortForGcp = "tooShortForGcp";
inline constexpr const char* kInvalidGcpPrefix = "invalidGcpPrefix";

// Single values
inline constexpr const char* kImporterIdxMustBeOneCharacter = "importerIdxMustBeOneCharacter";
inline constexpr const char* kInvalidImporterIdxCharacter = "invalidImporterIdxCharacter";
inline constexpr const char* kIllegalZeroValue = "illegalZeroValue";
inline constexpr const char* kNotZero = "notZero";
inline constexpr const char* kIllegalZeroPrefix = "illegalZeroPrefix";
inline constexpr const char* kNotZeroOrOne = "notZeroOrOne";
inline constexpr const char* kInvalidWindingDirection = "invalidWindingDirection";
inline constexpr const char* kInvalidBiologicalSexCode = "invalidBiologicalSexCode";
inline constexpr const char* kInvalidMediaType = "invalidMediaType";
inline constexpr const char* kInvalidPackageType = "invalidPackageType";
inline constexpr const char* kInvalidPercentSequence = "invalidPercentSequence";

// Code lists
inline constexpr const char* kNotIso3166 = "notIso3166";
inline constexpr const char* kNotIso3166Or999 = "notIso3166Or999";
inline constexpr const char* kNotIso3166Alpha2 = "notIso3166Alpha2";
inline constexpr const char* kNotIso4217 = "notIso4217";

// IBAN
inline constexpr const char* kIbanTooShort = "ibanTooShort";
inline constexpr const char* kIbanTooLong = "ibanTooLong";
inline constexpr const char* kInvalidIbanCharacter = "invalidIbanCharacter";
inline constexpr const char* kIllegalIbanCountryCode = "illegalIbanCountryCode";
inline constexpr const char* kIncorrectIbanChecksum = "incorrectIbanChecksum";

// Dates and times
inline constexpr const char* kDateTooShort = "dateTooShort";
inline constexpr const char* kDateTooLong = "dateTooLong";
inline constexpr const char* kDateWithHourTooShort = "dateWithHourTooShort";
inline constexpr const char* kDateWithHourTooLong = "dateWithHourTooLong";
inline constexpr const char* kHourWithMinuteTooShort = "hourWithMinuteTooShort";
inline constexpr const char* kHourWithMinuteTooLong = "hourWithMinuteTooLong";
inline constexpr const char* kMmssInvalidLength = "mmssInvalidLength";
inline constexpr const char* kHourTooShort = "hourTooShort";
inline constexpr const char* kHourTooLong = "hourTooLong";
inline constexpr const char* kMinuteTooShort = "minuteTooShort";
inline constexpr const char* kMinuteTooLong = "minuteTooLong";
inline constexpr const char* kSecondTooShort = "secondTooShort";
inline constexpr const char* kSecondTooLong = "secondTooLong";
inline constexpr const char* kIllegalMonth = "illegalMonth";
inline constexpr const char* kIllegalDay = "illegalDay";
inline constexpr const char* kIllegalHour = "illegalHour";
inline constexpr const char* kIllegalMinute = "illegalMinute";
inline constexpr const char* kIllegalSecond = "illegalSecond";

// Geographic coordinates
inline constexpr const char* kLatitudeInvalidLength = "latitudeInvalidLength";
inline constexpr const char* kInvalidLatitude = "invalidLatitude";
inline constexpr const char* kLongitudeInvalidLength = "longitudeInvalidLength";
inline constexpr const char* kInvalidLongitude = "invalidLongitude";

// Pieces and positions
inline constexpr const char* kInvalidLengthForPieceOfTotal = "invalidLengthForPieceOfTotal";
inline constexpr const char* kZeroPieceNumber = "zeroPieceNumber";
inline constexpr const char* kZeroTotalPieces = "zeroTotalPieces";
inline constexpr const char* kPieceNumberExceedsTotal = "pieceNumberExceedsTotal";
inline constexpr const char* kPositionInSequenceMalformed = "positionInSequenceMalformed";
inline constexpr const char* kPositionExceedsEnd = "positionExceedsEnd";

// Coupons (AI 8110 and AI 8112)
inline constexpr const char* kCouponMissingFormatCode = "couponMissingFormatCode";
inline constexpr const char* kCouponInvalidFormatCode = "couponInvalidFormatCode";
inline constexpr const char* kCouponMissingFunderVli = "couponMissingFunderVli";
inline constexpr const char* kCouponInvalidFunderLength = "couponInvalidFunderLength";
inline constexpr const char* kCouponTruncatedFunder = "couponTruncatedFunder";
inline constexpr const char* kCouponTruncatedOfferCode = "couponTruncatedOfferCode";
inline constexpr const char* kCouponMissingSerialNumberVli = "couponMissingSerialNumberVli";
inline constexpr const char* kCouponTruncatedSerialNumber = "couponTruncatedSerialNumber";
inline constexpr const char* kCouponMissingGcpVli = "couponMissingGcpVli";
inline constexpr const char* kCouponInvalidGcpLength = "couponInvalidGcpLength";
inline constexpr const char* kCouponTruncatedGcp = "couponTruncatedGcp";
inline constexpr const char* kCouponMissingSaveValueVli = "couponMissingSaveValueVli";
inline constexpr const char* kCouponInvalidSaveValueLength = "couponInvalidSaveValueLength";
inline constexpr const char* kCouponTruncatedSaveValue = "couponTruncatedSaveValue";
inline constexpr const char* kCouponMissing1stPurchaseRequirementVli = "couponMissing1stPurchaseRequirementVli";
inline constexpr const char* kCouponInvalid1stPurchaseRequirementLength = "couponInvalid1stPurchaseRequirementLength";
inline constexpr const char* kCouponTruncated1stPurchaseRequirement = "couponTruncated1stPurchaseRequirement";
inline constexpr const char* kCouponMissing1stPurchaseRequirementCode = "couponMissing1stPurchaseRequirementCode";
inline constexpr const char* kCouponInvalid1stPurchaseRequirementCode = "couponInvalid1stPurchaseRequirementCode";
inline constexpr const char* kCouponTruncated1stPurchaseFamilyCode = "couponTruncated1stPurchaseFamilyCode";
inline constexpr const char* kCouponMissingAdditionalPurchaseRulesCode = "couponMissingAdditionalPurchaseRulesCode";
inline constexpr const char* kCouponInvalidAdditionalPurchaseRulesCode = "couponInvalidAdditionalPurchaseRulesCode";
inline constexpr const char* kCouponMissing2ndPurchaseRequirementVli = "couponMissing2ndPurchaseRequirementVli";
inline constexpr const char* kCouponInvalid2ndPurchaseRequirementLength = "couponInvalid2ndPurchaseRequirementLength";
inline constexpr const char* kCouponTruncated2ndPurchaseRequirement = "couponTruncated2ndPurchaseRequirement";
inline constexpr const char* kCouponMissing2ndPurchaseRequirementCode = "couponMissing2ndPurchaseRequirementCode";
inline constexpr const char* kCouponInvalid2ndPurchaseRequirementCode = "couponInvalid2ndPurchaseRequirementCode";
inline constexpr const char* kCouponTruncated2ndPurchaseFamilyCode = "couponTruncated2ndPurchaseFamilyCode";
inline constexpr const char* kCouponMissing2ndPurchaseGcpVli = "couponMissing2ndPurchaseGcpVli";
inline constexpr const char* kCouponInvalid2ndPurchaseGcpLength = "couponInvalid2ndPurchaseGcpLength";
inline constexpr const char* kCouponTruncated2ndPurchaseGcp = "couponTruncated2ndPurchaseGcp";
inline constexpr const char* kCouponMissing3rdPurchaseRequirementVli = "couponMissing3rdPurchaseRequirementVli";
inline constexpr const char* kCouponInvalid3rdPurchaseRequirementLength = "couponInvalid3rdPurchaseRequirementLength";
inline constexpr const char* kCouponTruncated3rdPurchaseRequirement = "couponTruncated3rdPurchaseRequirement";
inline constexpr const char* kCouponMissing3rdPurchaseRequirementCode = "couponMissing3rdPurchaseRequirementCode";
inline constexpr const char* kCouponInvalid3rdPurchaseRequirementCode = "couponInvalid3rdPurchaseRequirementCode";
inline constexpr const char* kCouponTruncated3rdPurchaseFamilyCode = "couponTruncated3rdPurchaseFamilyCode";
inline constexpr const char* kCouponMissing3rdPurchaseGcpVli = "couponMissing3rdPurchaseGcpVli";
inline constexpr const char* kCouponInvalid3rdPurchaseGcpLength = "couponInvalid3rdPurchaseGcpLength";
inline constexpr const char* kCouponTruncated3rdPurchaseGcp = "couponTruncated3rdPurchaseGcp";
inline constexpr const char* kCouponTooShortForExpirationDate = "couponTooShortForExpirationDate";
inline constexpr const char* kCouponInvalidExpirationDate = "couponInvalidExpirationDate";
inline constexpr const char* kCouponTooShortForStartDate = "couponTooShortForStartDate";
inline constexpr const char* kCouponInvalidStartDate = "couponInvalidStartDate";
inline constexpr const char* kCouponExpirationBeforeStart = "couponExpirationBeforeStart";
inline constexpr const char* kCouponMissingRetailerGcpOrGlnVli = "couponMissingRetailerGcpOrGlnVli";
inline constexpr const char* kCouponInvalidRetailerGcpOrGlnLength = "couponInvalidRetailerGcpOrGlnLength";
inline constexpr const char* kCouponTruncatedRetailerGcpOrGln = "couponTruncatedRetailerGcpOrGln";
inline constexpr const char* kCouponMissingSaveValueCode = "couponMissingSaveValueCode";
inline constexpr const char* kCouponInvalidSaveValueCode = "couponInvalidSaveValueCode";
inline constexpr const char* kCouponMissingSaveValueAppliesToItem = "couponMissingSaveValueAppliesToItem";
inline constexpr const char* kCouponInvalidSaveValueAppliesToItem = "couponInvalidSaveValueAppliesToItem";
inline constexpr const char* kCouponMissingStoreCouponFlag = "couponMissingStoreCouponFlag";
inline constexpr const char* kCouponMissingDontMultiplyFlag = "couponMissingDontMultiplyFlag";
inline constexpr const char* kCouponInvalidDontMultiplyFlag = "couponInvalidDontMultiplyFlag";
inline constexpr const char* kCouponExcessData = "couponExcessData";

}  // namespace codepayload::lint::reason
