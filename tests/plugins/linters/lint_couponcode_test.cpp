#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintCouponcode{"couponcode"};

// The mandatory part used below: GCP VLI 0 + "123456", offer code "123456",
// save value VLI 1 + "1", purchase requirement VLI 1 + "1", requirement
// code 0, family code "123" (21 digits).
TEST(LintCouponcode, AcceptsMandatoryAndOptionalFields) {
  expectRows(lintCouponcode, {
                                 pass("012345612345611110123"),
                                 pass("012345612345611119123"),
                                 pass("612345678901212345651234531239999"),
                                 pass("012345612345611110123101101239"),
                                 pass("0123456123456111101231351234549990123456"),
                                 pass("01234561234561111012321101239"),
                                 pass("012345612345611110123221291236123456789012"),
                                 pass("0123456123456111101233251231"),
                                 pass("0123456123456111101234250101"),
                                 pass("01234561234561111012332512314250101"),
                                 pass("01234561234561111012332501014250101"),
                                 pass("01234561234561111012350123456"),
                                 pass("01234561234561111012359123456789012345"),
                                 pass("012345612345611110123611234567"),
                                 pass("012345612345611110123671234567890123"),
                                 pass("01234561234561111012390000"),
                                 pass("01234561234561111012396291"),
                                 pass("01234561234561111012310110123921101239325123142501015012345661123456790000"),
                             });
}

TEST(LintCouponcode, ReportsTheFirstNonDigit) {
  expectRows(lintCouponcode, {
                                 bad("a12345612345611110123", "nonDigitCharacter", 0, 1),
                                 bad("01234561234561111012a", "nonDigitCharacter", 20, 1),
                                 bad("0123456123456111101239 000", "nonDigitCharacter", 22, 1),
                             });
}

TEST(LintCouponcode, ReportsThePrimaryGcp) {
  expectRows(lintCouponcode, {
                                 bad("", "couponMissingGcpVli", 0, 0),
                                 bad("71234567890123", "couponInvalidGcpLength", 0, 1),
                                 bad("9123456789012345", "couponInvalidGcpLength", 0, 1),
                                 bad("0", "couponTruncatedGcp", 0, 1),
                                 bad("01", "couponTruncatedGcp", 1, 1),
                                 bad("012345", "couponTruncatedGcp", 1, 5),
                                 bad("1123456", "couponTruncatedGcp", 1, 6),
                             });
}

TEST(LintCouponcode, ReportsTheOfferCodeAndSaveValue) {
  expectRows(lintCouponcode, {
                                 bad("0123456", "couponTruncatedOfferCode", 0, 7),
                                 bad("01234561", "couponTruncatedOfferCode", 7, 1),
                                 bad("012345612345", "couponTruncatedOfferCode", 7, 5),
                                 bad("0123456123456", "couponMissingSaveValueVli", 0, 13),
                                 bad("01234561234560", "couponInvalidSaveValueLength", 13, 1),
                                 bad("01234561234566", "couponInvalidSaveValueLength", 13, 1),
                                 bad("01234561234561", "couponTruncatedSaveValue", 0, 14),
                                 bad("012345612345621", "couponTruncatedSaveValue", 14, 1),
                             });
}

TEST(LintCouponcode, ReportsThePrimaryPurchaseRequirement) {
  expectRows(lintCouponcode, {
                                 bad("012345612345611", "couponMissing1stPurchaseRequirementVli", 0, 15),
                                 bad("0123456123456110", "couponInvalid1stPurchaseRequirementLength", 15, 1),
                                 bad("0123456123456111", "couponTruncated1stPurchaseRequirement", 0, 16),
                                 bad("01234561234561121", "couponTruncated1stPurchaseRequirement", 16, 1),
                                 bad("01234561234561111", "couponMissing1stPurchaseRequirementCode", 0, 17),
                                 bad("012345612345611115", "couponInvalid1stPurchaseRequirementCode", 17, 1),
                                 bad("012345612345611110", "couponTruncated1stPurchaseFamilyCode", 0, 18),
                                 bad("01234561234561111012", "couponTruncated1stPurchaseFamilyCode", 18, 2),
                             });
}

TEST(LintCouponcode, ReportsTheSecondPurchaseField) {
  expectRows(lintCouponcode, {
                                 bad("0123456123456111101231", "couponMissingAdditionalPurchaseRulesCode", 0, 22),
                                 bad("01234561234561111012314", "couponInvalidAdditionalPurchaseRulesCode", 22, 1),
                                 bad("01234561234561111012310", "couponMissing2ndPurchaseRequirementVli", 0, 23),
                                 bad("012345612345611110123106", "couponInvalid2ndPurchaseRequirementLength", 23, 1),
                                 bad("012345612345611110123101", "couponTruncated2ndPurchaseRequirement", 0, 24),
                                 bad("0123456123456111101231011", "couponMissing2ndPurchaseRequirementCode", 0, 25),
                                 bad("01234561234561111012310115", "couponInvalid2ndPurchaseRequirementCode", 25, 1),
                                 bad("01234561234561111012310110", "couponTruncated2ndPurchaseFamilyCode", 0, 26),
                                 bad("0123456123456111101231011012", "couponTruncated2ndPurchaseFamilyCode", 26, 2),
                                 bad("01234561234561111012310110123", "couponMissing2ndPurchaseGcpVli", 0, 29),
                                 bad("012345612345611110123101101237", "couponInvalid2ndPurchaseGcpLength", 29, 1),
                                 bad("012345612345611110123101101230", "couponTruncated2ndPurchaseGcp", 0, 30),
                                 bad("0123456123456111101231011012301234", "couponTruncated2ndPurchaseGcp", 30, 4),
                             });
}

TEST(LintCouponcode, ReportsTheThirdPurchaseField) {
  expectRows(lintCouponcode, {
                                 bad("0123456123456111101232", "couponMissing3rdPurchaseRequirementVli", 0, 22),
                                 bad("01234561234561111012320", "couponInvalid3rdPurchaseRequirementLength", 22, 1),
                                 bad("01234561234561111012321", "couponTruncated3rdPurchaseRequirement", 0, 23),
                                 bad("012345612345611110123211", "couponMissing3rdPurchaseRequirementCode", 0, 24),
                                 bad("0123456123456111101232118", "couponInvalid3rdPurchaseRequirementCode", 24, 1),
                                 bad("0123456123456111101232110", "couponTruncated3rdPurchaseFamilyCode", 0, 25),
                                 bad("01234561234561111012321101", "couponTruncated3rdPurchaseFamilyCode", 25, 1),
                                 bad("0123456123456111101232110123", "couponMissing3rdPurchaseGcpVli", 0, 28),
                                 bad("01234561234561111012321101238", "couponInvalid3rdPurchaseGcpLength", 28, 1),
                                 bad("012345612345611110123211012310", "couponTruncated3rdPurchaseGcp", 29, 1),
                             });
}

TEST(LintCouponcode, ReportsTheDates) {
  expectRows(lintCouponcode, {
                                 bad("0123456123456111101233", "couponTooShortForExpirationDate", 0, 22),
                                 bad("01234561234561111012332512", "couponTooShortForExpirationDate", 22, 4),
                                 bad("0123456123456111101233251232", "couponInvalidExpirationDate", 22, 6),
                                 bad("0123456123456111101233250229", "couponInvalidExpirationDate", 22, 6),
                                 bad("0123456123456111101233250100", "couponInvalidExpirationDate", 22, 6),
                                 bad("0123456123456111101234", "couponTooShortForStartDate", 0, 22),
                                 bad("0123456123456111101234250", "couponTooShortForStartDate", 22, 3),
                                 bad("0123456123456111101234251301", "couponInvalidStartDate", 22, 6),
                                 bad("01234561234561111012332501014250", "couponTooShortForStartDate", 29, 3),
                                 bad("01234561234561111012332501014250102", "couponExpirationBeforeStart", 21, 14),
                                 bad("01234561234561111012332412314250101", "couponExpirationBeforeStart", 21, 14),
                             });
}

TEST(LintCouponcode, ReportsTheSerialNumberAndRetailer) {
  expectRows(lintCouponcode, {
                                 bad("0123456123456111101235", "couponMissingSerialNumberVli", 0, 22),
                                 bad("01234561234561111012350", "couponTruncatedSerialNumber", 0, 23),
                                 bad("0123456123456111101235012345", "couponTruncatedSerialNumber", 23, 5),
                                 bad("0123456123456111101236", "couponMissingRetailerGcpOrGlnVli", 0, 22),
                                 bad("01234561234561111012360", "couponInvalidRetailerGcpOrGlnLength", 22, 1),
                                 bad("01234561234561111012368", "couponInvalidRetailerGcpOrGlnLength", 22, 1),
                                 bad("01234561234561111012361", "couponTruncatedRetailerGcpOrGln", 0, 23),
                                 bad("01234561234561111012361123456", "couponTruncatedRetailerGcpOrGln", 23, 6),
                             });
}

TEST(LintCouponcode, ReportsTheMiscellaneousField) {
  expectRows(lintCouponcode, {
                                 bad("0123456123456111101239", "couponMissingSaveValueCode", 0, 22),
                                 bad("01234561234561111012393", "couponInvalidSaveValueCode", 22, 1),
                                 bad("01234561234561111012397", "couponInvalidSaveValueCode", 22, 1),
                                 bad("01234561234561111012390", "couponMissingSaveValueAppliesToItem", 0, 23),
                                 bad("012345612345611110123903", "couponInvalidSaveValueAppliesToItem", 23, 1),
                                 bad("012345612345611110123900", "couponMissingStoreCouponFlag", 0, 24),
                                 bad("0123456123456111101239000", "couponMissingDontMultiplyFlag", 0, 25),
                                 bad("01234561234561111012390002", "couponInvalidDontMultiplyFlag", 25, 1),
                             });
}

TEST(LintCouponcode, ReportsDataAfterTheLastField) {
  expectRows(lintCouponcode, {
                                 bad("0123456123456111101237", "couponExcessData", 21, 1),
                                 bad("0123456123456111101230", "couponExcessData", 21, 1),
                                 bad("012345612345611110123900001", "couponExcessData", 26, 1),
                                 bad("01234561234561111012342501013250101", "couponExcessData", 28, 7),
                                 bad("0123456123456111101232110123910110123", "couponExcessData", 29, 8),
                             });
}
// The reason tokens lintCouponcode publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintCouponcode, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintCouponcode.publishedReasons(), (Tokens{"nonDigitCharacter",
                                                       "couponMissingGcpVli",
                                                       "couponInvalidGcpLength",
                                                       "couponTruncatedGcp",
                                                       "couponTruncatedOfferCode",
                                                       "couponMissingSaveValueVli",
                                                       "couponInvalidSaveValueLength",
                                                       "couponTruncatedSaveValue",
                                                       "couponMissing1stPurchaseRequirementVli",
                                                       "couponInvalid1stPurchaseRequirementLength",
                                                       "couponTruncated1stPurchaseRequirement",
                                                       "couponMissing1stPurchaseRequirementCode",
                                                       "couponInvalid1stPurchaseRequirementCode",
                                                       "couponTruncated1stPurchaseFamilyCode",
                                                       "couponMissingAdditionalPurchaseRulesCode",
                                                       "couponInvalidAdditionalPurchaseRulesCode",
                                                       "couponMissing2ndPurchaseRequirementVli",
                                                       "couponInvalid2ndPurchaseRequirementLength",
                                                       "couponTruncated2ndPurchaseRequirement",
                                                       "couponMissing2ndPurchaseRequirementCode",
                                                       "couponInvalid2ndPurchaseRequirementCode",
                                                       "couponTruncated2ndPurchaseFamilyCode",
                                                       "couponMissing2ndPurchaseGcpVli",
                                                       "couponInvalid2ndPurchaseGcpLength",
                                                       "couponTruncated2ndPurchaseGcp",
                                                       "couponMissing3rdPurchaseRequirementVli",
                                                       "couponInvalid3rdPurchaseRequirementLength",
                                                       "couponTruncated3rdPurchaseRequirement",
                                                       "couponMissing3rdPurchaseRequirementCode",
                                                       "couponInvalid3rdPurchaseRequirementCode",
                                                       "couponTruncated3rdPurchaseFamilyCode",
                                                       "couponMissing3rdPurchaseGcpVli",
                                                       "couponInvalid3rdPurchaseGcpLength",
                                                       "couponTruncated3rdPurchaseGcp",
                                                       "couponTooShortForExpirationDate",
                                                       "couponInvalidExpirationDate",
                                                       "couponTooShortForStartDate",
                                                       "couponInvalidStartDate",
                                                       "couponExpirationBeforeStart",
                                                       "couponMissingSerialNumberVli",
                                                       "couponTruncatedSerialNumber",
                                                       "couponMissingRetailerGcpOrGlnVli",
                                                       "couponInvalidRetailerGcpOrGlnLength",
                                                       "couponTruncatedRetailerGcpOrGln",
                                                       "couponMissingSaveValueCode",
                                                       "couponInvalidSaveValueCode",
                                                       "couponMissingSaveValueAppliesToItem",
                                                       "couponInvalidSaveValueAppliesToItem",
                                                       "couponMissingStoreCouponFlag",
                                                       "couponMissingDontMultiplyFlag",
                                                       "couponInvalidDontMultiplyFlag",
                                                       "couponExcessData"}));
}

}  // namespace
}  // namespace codepayload::lint::test
