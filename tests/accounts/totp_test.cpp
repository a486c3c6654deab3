#include "accounts/totp.h"

#include <gtest/gtest.h>

#include "accounts/base32.h"

namespace codepayload::accounts {
namespace {

// RFC 6238 Appendix B: the SHA-1 seed and column, 8 digits.
constexpr std::string_view kRfcSeed = "12345678901234567890";

TEST(Totp, MatchesTheRfc6238Sha1Vectors) {
  const TotpSettings eightDigits{30, 8, 1};
  EXPECT_EQ(totpCode(kRfcSeed, 59, eightDigits), "94287082");
  EXPECT_EQ(totpCode(kRfcSeed, 1111111109, eightDigits), "07081804");
  EXPECT_EQ(totpCode(kRfcSeed, 1111111111, eightDigits), "14050471");
  EXPECT_EQ(totpCode(kRfcSeed, 1234567890, eightDigits), "89005924");
  EXPECT_EQ(totpCode(kRfcSeed, 2000000000, eightDigits), "69279037");
  EXPECT_EQ(totpCode(kRfcSeed, 20000000000, eightDigits), "65353130");
}

// RFC 4226 Appendix D: HOTP of the same seed, 6 digits.
TEST(Totp, MatchesTheRfc4226HotpVectors) {
  const char* expected[] = {"755224", "287082", "359152", "969429", "338314",
                            "254676", "287922", "162583", "399871", "520489"};
  for (std::uint64_t counter = 0; counter < 10; ++counter) {
    EXPECT_EQ(hotpCode(kRfcSeed, counter, 6), expected[counter]) << counter;
  }
  EXPECT_EQ(totpCode(kRfcSeed, 59), "287082");  // the default: 6 digits, 30 s
}

TEST(Totp, StepsAreFloorDivisions) {
  EXPECT_EQ(totpStep(0, 30), 0);
  EXPECT_EQ(totpStep(29, 30), 0);
  EXPECT_EQ(totpStep(30, 30), 1);
  EXPECT_EQ(totpStep(-1, 30), -1);
  EXPECT_EQ(totpStep(-30, 30), -1);
  EXPECT_EQ(totpStep(-31, 30), -2);
}

TEST(Totp, AcceptsOneStepEitherSide) {
  const std::int64_t now = 1111111111;  // step 37037037
  const std::int64_t step = 37037037;
  EXPECT_EQ(acceptTotp(kRfcSeed, totpCode(kRfcSeed, now), now, std::nullopt), step);
  EXPECT_EQ(acceptTotp(kRfcSeed, totpCode(kRfcSeed, now - 30), now, std::nullopt), step - 1);
  EXPECT_EQ(acceptTotp(kRfcSeed, totpCode(kRfcSeed, now + 30), now, std::nullopt), step + 1);
  EXPECT_EQ(acceptTotp(kRfcSeed, totpCode(kRfcSeed, now - 60), now, std::nullopt), std::nullopt);
  EXPECT_EQ(acceptTotp(kRfcSeed, totpCode(kRfcSeed, now + 60), now, std::nullopt), std::nullopt);
}

TEST(Totp, NeverAcceptsACodeTwiceNorAnOlderOne) {
  const std::int64_t now = 1111111111;
  const std::int64_t step = 37037037;
  const std::string code = totpCode(kRfcSeed, now);
  EXPECT_EQ(acceptTotp(kRfcSeed, code, now, step), std::nullopt);                          // the same code again
  EXPECT_EQ(acceptTotp(kRfcSeed, code, now + 20, step), std::nullopt);                     // later, still in the window
  EXPECT_EQ(acceptTotp(kRfcSeed, totpCode(kRfcSeed, now - 30), now, step), std::nullopt);  // older
  EXPECT_EQ(acceptTotp(kRfcSeed, totpCode(kRfcSeed, now + 30), now, step), step + 1);      // newer
  EXPECT_EQ(acceptTotp(kRfcSeed, code, now, step - 1), step);
}

TEST(Totp, RefusesMalformedCodes) {
  const std::int64_t now = 1111111111;
  const std::string code = totpCode(kRfcSeed, now);
  EXPECT_EQ(acceptTotp(kRfcSeed, "", now, std::nullopt), std::nullopt);
  EXPECT_EQ(acceptTotp(kRfcSeed, code.substr(0, 5), now, std::nullopt), std::nullopt);
  EXPECT_EQ(acceptTotp(kRfcSeed, code + "0", now, std::nullopt), std::nullopt);
  EXPECT_EQ(acceptTotp("another secret", code, now, std::nullopt), std::nullopt);
}

TEST(Totp, DigitsAreAParameter) {
  EXPECT_THROW(hotpCode(kRfcSeed, 0, 5), std::invalid_argument);
  EXPECT_THROW(hotpCode(kRfcSeed, 0, 9), std::invalid_argument);
  EXPECT_EQ(hotpCode(kRfcSeed, 0, 7), "4755224");
  const TotpSettings eightDigits{30, 8, 1};
  EXPECT_EQ(acceptTotp(kRfcSeed, "14050471", 1111111111, std::nullopt, eightDigits), 37037037);
}

TEST(Totp, NewSecretsAreRandom) {
  const std::string first = newTotpSecret();
  EXPECT_EQ(first.size(), 20u);
  EXPECT_NE(first, newTotpSecret());
  EXPECT_EQ(encodeBase32(first).size(), 32u);
}

TEST(Totp, WritesTheOtpauthUri) {
  EXPECT_EQ(otpauthUri("GS1 Code-Payload", "ana@example.com", kRfcSeed),
            "otpauth://totp/GS1%20Code-Payload:ana%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
            "&issuer=GS1%20Code-Payload&algorithm=SHA1&digits=6&period=30");
  EXPECT_EQ(otpauthUri("a:b&c", "\xc3\xa9", "x", TotpSettings{60, 8, 1}),
            "otpauth://totp/a%3Ab%26c:%C3%A9?secret=PA&issuer=a%3Ab%26c&algorithm=SHA1&digits=8&period=60");
}

}  // namespace
}  // namespace codepayload::accounts
