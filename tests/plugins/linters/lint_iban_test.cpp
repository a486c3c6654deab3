#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintIban{"iban"};

TEST(LintIban, AcceptsValidIbans) {
  expectRows(lintIban, {
                           pass("DE89370400440532013000"),
                           pass("GB82WEST12345698765432"),
                           pass("NL91ABNA0417164300"),
                           pass("NO9386011117947"),
                           pass("BE71096123456769"),
                           pass("MU43BOMM0101123456789101000MUR"),
                           pass("MT90MALT011000012345MTLCAST001SABC"),
                       });
}

TEST(LintIban, ReportsAWrongChecksumOnTheCheckDigits) {
  expectRows(lintIban, {
                           bad("DE89370400440532013001", "incorrectIbanChecksum", 2, 2),
                           bad("BE71096123456760", "incorrectIbanChecksum", 2, 2),
                           bad("MT90MALT011000012345MTLCAST001SAB0", "incorrectIbanChecksum", 2, 2),
                       });
}

TEST(LintIban, ReportsTheCountryCodeBeforeTheLength) {
  expectRows(lintIban, {
                           bad("XX361234567890", "illegalIbanCountryCode", 0, 2),
                           bad("de89370400440532013000", "illegalIbanCountryCode", 0, 2),
                           bad("XX71", "illegalIbanCountryCode", 0, 2),
                           bad("XXXXMALT011000012345MTLCAST001SABCD", "illegalIbanCountryCode", 0, 2),
                       });
}

TEST(LintIban, ReportsLengths) {
  expectRows(lintIban, {
                           bad("", "ibanTooShort", 0, 0),
                           bad("B", "ibanTooShort", 0, 1),
                           bad("BE7", "ibanTooShort", 0, 3),
                           bad("BE71", "ibanTooShort", 0, 4),
                           bad("BE71096123", "ibanTooShort", 0, 10),
                           bad("BE71x", "ibanTooShort", 0, 5),
                           bad("MTXXMALT011000012345MTLCAST001SABCD", "ibanTooLong", 0, 35),
                           bad("MT90MALT011000012345MTLCAST001SABCDE", "ibanTooLong", 0, 36),
                       });
}

TEST(LintIban, ReportsInvalidCharactersFromTheFifthOnThenTheFirstFour) {
  expectRows(lintIban, {
                           bad("LC14BOSLxx3456789012345678901230", "invalidIbanCharacter", 8, 1),
                           bad("DE89 370400440532013000", "invalidIbanCharacter", 4, 1),
                           bad("DEx937040044053201300x", "invalidIbanCharacter", 21, 1),
                           bad("DEx9370400440532013000", "invalidIbanCharacter", 2, 1),
                           bad("DE8-370400440532013000", "invalidIbanCharacter", 3, 1),
                       });
}

// The reason tokens lintIban publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintIban, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintIban.publishedReasons(), (Tokens{"ibanTooShort", "illegalIbanCountryCode", "ibanTooLong",
                                                 "invalidIbanCharacter", "incorrectIbanChecksum"}));
}

}  // namespace
}  // namespace codepayload::lint::test
