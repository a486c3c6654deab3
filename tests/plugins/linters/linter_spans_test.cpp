// A sweep over every registered linter with many generated inputs: each
// verdict is either a pass or one of that linter's published reason tokens,
// with a span inside the component and a sentence in the linter's row. Run under ASan/UBSan this also shows that
// no linter reads outside its component.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/linter.h"
#include "plugins/linters/linters.h"

namespace codepayload::lint::test {
namespace {

using Tokens = std::set<std::string_view>;

const Tokens kDateTokens = {"dateTooShort", "dateTooLong", "nonDigitCharacter", "illegalMonth", "illegalDay"};
const Tokens kGcpTokens = {"tooShortForGcp", "invalidGcpPrefix"};
const Tokens kHhmiTokens = {"hourWithMinuteTooShort", "hourWithMinuteTooLong", "nonDigitCharacter", "illegalHour",
                            "illegalMinute"};

// Every reason token each linter may report (the published contract).
const std::map<std::string_view, Tokens>& tokensByLinter() {
  static const std::map<std::string_view, Tokens> tokens = {
      {"couponcode",
       {"nonDigitCharacter",
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
        "couponExcessData"}},
      {"couponposoffer",
       {"nonDigitCharacter", "couponMissingFormatCode", "couponInvalidFormatCode", "couponMissingFunderVli",
        "couponInvalidFunderLength", "couponTruncatedFunder", "couponTruncatedOfferCode",
        "couponMissingSerialNumberVli", "couponTruncatedSerialNumber", "couponExcessData"}},
      {"cset39", {"invalidCharacter"}},
      {"cset64", {"invalidCharacter", "invalidCset64Padding"}},
      {"cset82", {"invalidCharacter"}},
      {"csetnumeric", {"invalidCharacter"}},
      {"csum", {"tooShortForCheckDigit", "nonDigitCharacter", "incorrectCheckDigit"}},
      {"csumalpha",
       {"tooLongForCheckPairImplementation", "tooShortForCheckPair", "invalidCset82Character", "incorrectCheckPair"}},
      {"gcppos1", kGcpTokens},
      {"gcppos2", kGcpTokens},
      {"hasnondigit", {"requiresNonDigitCharacter"}},
      {"hh", {"hourTooShort", "hourTooLong", "nonDigitCharacter", "illegalHour"}},
      {"hhmi", kHhmiTokens},
      {"hhmm", kHhmiTokens},
      {"hyphen", {"notHyphen"}},
      {"iban",
       {"ibanTooShort", "illegalIbanCountryCode", "ibanTooLong", "invalidIbanCharacter", "incorrectIbanChecksum"}},
      {"importeridx", {"importerIdxMustBeOneCharacter", "invalidImporterIdxCharacter"}},
      {"iso3166", {"notIso3166"}},
      {"iso3166999", {"notIso3166Or999"}},
      {"iso3166alpha2", {"notIso3166Alpha2"}},
      {"iso3166list", {"notIso3166"}},
      {"iso4217", {"notIso4217"}},
      {"iso5218", {"invalidBiologicalSexCode"}},
      {"key", kGcpTokens},
      {"keyoff1", kGcpTokens},
      {"latitude", {"latitudeInvalidLength", "nonDigitCharacter", "invalidLatitude"}},
      {"longitude", {"longitudeInvalidLength", "nonDigitCharacter", "invalidLongitude"}},
      {"mediatype", {"invalidMediaType"}},
      {"mi", {"minuteTooShort", "minuteTooLong", "nonDigitCharacter", "illegalMinute"}},
      {"mmoptss", {"mmssInvalidLength", "nonDigitCharacter", "illegalMinute", "illegalSecond"}},
      {"nonzero", {"nonDigitCharacter", "illegalZeroValue"}},
      {"nozeroprefix", {"illegalZeroPrefix", "nonDigitCharacter"}},
      {"packagetype", {"invalidPackageType"}},
      {"pcenc", {"invalidPercentSequence"}},
      {"pieceoftotal",
       {"nonDigitCharacter", "invalidLengthForPieceOfTotal", "zeroPieceNumber", "zeroTotalPieces",
        "pieceNumberExceedsTotal"}},
      {"posinseqslash", {"positionInSequenceMalformed", "illegalZeroPrefix", "positionExceedsEnd"}},
      {"ss", {"secondTooShort", "secondTooLong", "nonDigitCharacter", "illegalSecond"}},
      {"winding", {"invalidWindingDirection"}},
      {"yesno", {"notZeroOrOne"}},
      {"yymmd0", kDateTokens},
      {"yymmdd", kDateTokens},
      {"yymmddhh",
       {"dateWithHourTooShort", "dateWithHourTooLong", "nonDigitCharacter", "illegalMonth", "illegalDay",
        "illegalHour"}},
      {"yyyymmdd", kDateTokens},
      {"zero", {"notZero"}},
  };
  return tokens;
}

// Deterministic inputs: runs of single characters, and pseudo-random strings
// drawn mostly from digits (to reach the later checks) with some letters,
// separators, padding, percent signs, NUL and high bytes.
std::vector<std::string> sweepInputs() {
  std::vector<std::string> inputs;
  static constexpr char kFills[] = "0019A=%-/ \0\xff";
  for (char fill : std::string_view(kFills, sizeof kFills - 1)) {
    for (std::size_t size = 0; size <= 110; ++size) inputs.emplace_back(size, fill);
  }
  static constexpr char kAlphabetCharacters[] = "0123456789012345678901234567890123456789ABCXYZaz/%=-_ \0\x80\xff";
  constexpr std::string_view kAlphabet(kAlphabetCharacters, sizeof kAlphabetCharacters - 1);
  std::uint32_t state = 12345;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  for (int i = 0; i < 4000; ++i) {
    std::string input(next() % 48, ' ');
    for (char& c : input) c = kAlphabet[next() % kAlphabet.size()];
    inputs.push_back(std::move(input));
  }
  return inputs;
}

TEST(LinterSpans, EveryRegisteredLinterHasAPublishedTokenSet) {
  LinterTable table = builtinLinters();
  std::size_t count = 0;
  for (const LinterEntry* entry = table.begin; entry != table.end; ++entry, ++count) {
    EXPECT_TRUE(tokensByLinter().count(entry->name)) << entry->name;
  }
  EXPECT_EQ(count, tokensByLinter().size());
}

// A linter's row gives each of its published reasons a sentence, and no other.
TEST(LinterSpans, EveryPublishedTokenHasASentenceBesideItsLinter) {
  LinterTable table = builtinLinters();
  for (const LinterEntry* entry = table.begin; entry != table.end; ++entry) {
    Tokens withSentences;
    for (const ReasonSentence& sentence : entry->sentences()) {
      EXPECT_FALSE(sentence.sentence.empty()) << entry->name << ": " << sentence.reason;
      EXPECT_TRUE(withSentences.insert(sentence.reason).second) << entry->name << " repeats " << sentence.reason;
    }
    EXPECT_EQ(withSentences, tokensByLinter().at(entry->name)) << entry->name;
  }
}

TEST(LinterSpans, VerdictsUsePublishedTokensAndStayInsideTheComponent) {
  const std::vector<std::string> inputs = sweepInputs();
  LinterTable table = builtinLinters();
  for (const LinterEntry* entry = table.begin; entry != table.end; ++entry) {
    const Tokens& allowed = tokensByLinter().at(entry->name);
    std::size_t failures = 0;
    for (const std::string& input : inputs) {
      LintResult result = entry->fn(input);
      if (result.ok()) {
        EXPECT_EQ(result.offset, 0u);
        EXPECT_EQ(result.length, 0u);
        continue;
      }
      ++failures;
      EXPECT_TRUE(allowed.count(result.reason)) << entry->name << " reported \"" << result.reason << "\"";
      EXPECT_FALSE(sentenceOf(entry->sentences(), result.reason).empty())
          << entry->name << " has no sentence for \"" << result.reason << "\"";
      EXPECT_LE(std::size_t{result.offset} + result.length, input.size())
          << entry->name << " on a " << input.size() << "-character input";
    }
    EXPECT_GT(failures, 0u) << entry->name << " rejected nothing";
  }
}

}  // namespace
}  // namespace codepayload::lint::test
