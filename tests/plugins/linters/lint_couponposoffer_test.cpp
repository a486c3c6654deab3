#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintCouponposoffer{"couponposoffer"};

TEST(LintCouponposoffer, AcceptsCompleteCoupons) {
  expectRows(lintCouponposoffer, {
                                     pass("001234561234560123456"),
                                     pass("101234561234560123456"),
                                     pass("0012345612345611234567"),
                                     pass("061234567890121234569123456789012345"),
                                 });
}

TEST(LintCouponposoffer, ReportsTheFirstNonDigit) {
  expectRows(lintCouponposoffer, {
                                     bad("a01234561234560123456", "nonDigitCharacter", 0, 1),
                                     bad("00123456123456012345a", "nonDigitCharacter", 20, 1),
                                     bad("x", "nonDigitCharacter", 0, 1),
                                 });
}

TEST(LintCouponposoffer, ReportsTheFormatCodeAndFunder) {
  expectRows(lintCouponposoffer, {
                                     bad("", "couponMissingFormatCode", 0, 0),
                                     bad("201234561234560123456", "couponInvalidFormatCode", 0, 1),
                                     bad("9", "couponInvalidFormatCode", 0, 1),
                                     bad("0", "couponMissingFunderVli", 0, 1),
                                     bad("07", "couponInvalidFunderLength", 1, 1),
                                     bad("19", "couponInvalidFunderLength", 1, 1),
                                     bad("00", "couponTruncatedFunder", 0, 2),
                                     bad("0012", "couponTruncatedFunder", 2, 2),
                                     bad("01123456", "couponTruncatedFunder", 2, 6),
                                 });
}

TEST(LintCouponposoffer, ReportsTheOfferCode) {
  expectRows(lintCouponposoffer, {
                                     bad("00123456", "couponTruncatedOfferCode", 0, 8),
                                     bad("001234561", "couponTruncatedOfferCode", 8, 1),
                                     bad("0012345612345", "couponTruncatedOfferCode", 8, 5),
                                 });
}

TEST(LintCouponposoffer, ReportsTheSerialNumber) {
  expectRows(lintCouponposoffer, {
                                     bad("00123456123456", "couponMissingSerialNumberVli", 0, 14),
                                     bad("001234561234560", "couponTruncatedSerialNumber", 0, 15),
                                     bad("0012345612345601234", "couponTruncatedSerialNumber", 15, 4),
                                     bad("001234561234561123456", "couponTruncatedSerialNumber", 15, 6),
                                     bad("06123456789012123456912345678901234", "couponTruncatedSerialNumber", 21, 14),
                                 });
}

TEST(LintCouponposoffer, ReportsDataAfterTheSerialNumber) {
  expectRows(lintCouponposoffer, {
                                     bad("0012345612345601234567", "couponExcessData", 21, 1),
                                     bad("0612345678901212345691234567890123456", "couponExcessData", 36, 1),
                                     bad("00123456123456012345600", "couponExcessData", 21, 2),
                                 });
}

// The reason tokens lintCouponposoffer publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintCouponposoffer, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintCouponposoffer.publishedReasons(),
            (Tokens{"nonDigitCharacter", "couponMissingFormatCode", "couponInvalidFormatCode", "couponMissingFunderVli",
                    "couponInvalidFunderLength", "couponTruncatedFunder", "couponTruncatedOfferCode",
                    "couponMissingSerialNumberVli", "couponTruncatedSerialNumber", "couponExcessData"}));
}

}  // namespace
}  // namespace codepayload::lint::test
