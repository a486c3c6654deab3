#include "engine/validation_messages.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "engine/validation_codes.h"

namespace codepayload::messages {

namespace {

// Every linter reason token of plugins/linters/lint_reasons.h and of the
// shipped Lua linters, sorted; the sentence follows "AI <ai>: ".
constexpr std::array kLinterSentences{
    // clang-format off
    ReasonSentence{"couponExcessData", "the coupon has data left over after its last field: {part}"},
    ReasonSentence{"couponExpirationBeforeStart", "the coupon's expiration date {part} is before its start date"},
    ReasonSentence{"couponInvalid1stPurchaseRequirementCode", "the coupon's first purchase requirement code {part} is not an allowed value"},
    ReasonSentence{"couponInvalid1stPurchaseRequirementLength", "the length digit (VLI) of the coupon's first purchase requirement {part} is not an allowed length"},
    ReasonSentence{"couponInvalid2ndPurchaseGcpLength", "the length digit (VLI) of the coupon's second purchase GS1 Company Prefix {part} is not an allowed length"},
    ReasonSentence{"couponInvalid2ndPurchaseRequirementCode", "the coupon's second purchase requirement code {part} is not an allowed value"},
    ReasonSentence{"couponInvalid2ndPurchaseRequirementLength", "the length digit (VLI) of the coupon's second purchase requirement {part} is not an allowed length"},
    ReasonSentence{"couponInvalid3rdPurchaseGcpLength", "the length digit (VLI) of the coupon's third purchase GS1 Company Prefix {part} is not an allowed length"},
    ReasonSentence{"couponInvalid3rdPurchaseRequirementCode", "the coupon's third purchase requirement code {part} is not an allowed value"},
    ReasonSentence{"couponInvalid3rdPurchaseRequirementLength", "the length digit (VLI) of the coupon's third purchase requirement {part} is not an allowed length"},
    ReasonSentence{"couponInvalidAdditionalPurchaseRulesCode", "the coupon's additional purchase rules code {part} is not an allowed value"},
    ReasonSentence{"couponInvalidDontMultiplyFlag", "the coupon's don't-multiply flag {part} must be 0 or 1"},
    ReasonSentence{"couponInvalidExpirationDate", "the coupon's expiration date {part} is not a valid date (YYMMDD)"},
    ReasonSentence{"couponInvalidFormatCode", "the coupon format code {part} must be 0 or 1"},
    ReasonSentence{"couponInvalidFunderLength", "the length digit (VLI) of the coupon's funder {part} is not an allowed length"},
    ReasonSentence{"couponInvalidGcpLength", "the length digit (VLI) of the coupon's GS1 Company Prefix {part} is not an allowed length"},
    ReasonSentence{"couponInvalidRetailerGcpOrGlnLength", "the length digit (VLI) of the coupon's retailer GS1 Company Prefix or GLN {part} is not an allowed length"},
    ReasonSentence{"couponInvalidSaveValueAppliesToItem", "the coupon's save-value-applies-to-item indicator {part} is not an allowed value"},
    ReasonSentence{"couponInvalidSaveValueCode", "the coupon's save value code {part} is not an allowed value"},
    ReasonSentence{"couponInvalidSaveValueLength", "the length digit (VLI) of the coupon's save value {part} is not an allowed length"},
    ReasonSentence{"couponInvalidStartDate", "the coupon's start date {part} is not a valid date (YYMMDD)"},
    ReasonSentence{"couponMissing1stPurchaseRequirementCode", "the coupon ends where the first purchase requirement code should be"},
    ReasonSentence{"couponMissing1stPurchaseRequirementVli", "the coupon ends where the length digit (VLI) of the first purchase requirement should be"},
    ReasonSentence{"couponMissing2ndPurchaseGcpVli", "the coupon ends where the length digit (VLI) of the second purchase GS1 Company Prefix should be"},
    ReasonSentence{"couponMissing2ndPurchaseRequirementCode", "the coupon ends where the second purchase requirement code should be"},
    ReasonSentence{"couponMissing2ndPurchaseRequirementVli", "the coupon ends where the length digit (VLI) of the second purchase requirement should be"},
    ReasonSentence{"couponMissing3rdPurchaseGcpVli", "the coupon ends where the length digit (VLI) of the third purchase GS1 Company Prefix should be"},
    ReasonSentence{"couponMissing3rdPurchaseRequirementCode", "the coupon ends where the third purchase requirement code should be"},
    ReasonSentence{"couponMissing3rdPurchaseRequirementVli", "the coupon ends where the length digit (VLI) of the third purchase requirement should be"},
    ReasonSentence{"couponMissingAdditionalPurchaseRulesCode", "the coupon ends where the additional purchase rules code should be"},
    ReasonSentence{"couponMissingDontMultiplyFlag", "the coupon ends where the don't-multiply flag should be"},
    ReasonSentence{"couponMissingFormatCode", "the coupon has no format code"},
    ReasonSentence{"couponMissingFunderVli", "the coupon ends where the length digit (VLI) of the funder should be"},
    ReasonSentence{"couponMissingGcpVli", "the coupon ends where the length digit (VLI) of the GS1 Company Prefix should be"},
    ReasonSentence{"couponMissingRetailerGcpOrGlnVli", "the coupon ends where the length digit (VLI) of the retailer GS1 Company Prefix or GLN should be"},
    ReasonSentence{"couponMissingSaveValueAppliesToItem", "the coupon ends where the save-value-applies-to-item indicator should be"},
    ReasonSentence{"couponMissingSaveValueCode", "the coupon ends where the save value code should be"},
    ReasonSentence{"couponMissingSaveValueVli", "the coupon ends where the length digit (VLI) of the save value should be"},
    ReasonSentence{"couponMissingSerialNumberVli", "the coupon ends where the length digit (VLI) of the serial number should be"},
    ReasonSentence{"couponMissingStoreCouponFlag", "the coupon ends where the store coupon flag should be"},
    ReasonSentence{"couponTooShortForExpirationDate", "the coupon's expiration date {where} is cut short"},
    ReasonSentence{"couponTooShortForStartDate", "the coupon's start date {where} is cut short"},
    ReasonSentence{"couponTruncated1stPurchaseFamilyCode", "the coupon's first purchase family code {where} is cut short"},
    ReasonSentence{"couponTruncated1stPurchaseRequirement", "the coupon's first purchase requirement {where} is cut short"},
    ReasonSentence{"couponTruncated2ndPurchaseFamilyCode", "the coupon's second purchase family code {where} is cut short"},
    ReasonSentence{"couponTruncated2ndPurchaseGcp", "the coupon's second purchase GS1 Company Prefix {where} is cut short"},
    ReasonSentence{"couponTruncated2ndPurchaseRequirement", "the coupon's second purchase requirement {where} is cut short"},
    ReasonSentence{"couponTruncated3rdPurchaseFamilyCode", "the coupon's third purchase family code {where} is cut short"},
    ReasonSentence{"couponTruncated3rdPurchaseGcp", "the coupon's third purchase GS1 Company Prefix {where} is cut short"},
    ReasonSentence{"couponTruncated3rdPurchaseRequirement", "the coupon's third purchase requirement {where} is cut short"},
    ReasonSentence{"couponTruncatedFunder", "the coupon's funder {where} is cut short"},
    ReasonSentence{"couponTruncatedGcp", "the coupon's GS1 Company Prefix {where} is cut short"},
    ReasonSentence{"couponTruncatedOfferCode", "the coupon's offer code {where} is cut short"},
    ReasonSentence{"couponTruncatedRetailerGcpOrGln", "the coupon's retailer GS1 Company Prefix or GLN {where} is cut short"},
    ReasonSentence{"couponTruncatedSaveValue", "the coupon's save value {where} is cut short"},
    ReasonSentence{"couponTruncatedSerialNumber", "the coupon's serial number {where} is cut short"},
    ReasonSentence{"dateTooLong", "{part} is too long for a date (YYMMDD)"},
    ReasonSentence{"dateTooShort", "{part} is too short for a date (YYMMDD)"},
    ReasonSentence{"dateWithHourTooLong", "{part} is too long for a date with hour (YYMMDDHH)"},
    ReasonSentence{"dateWithHourTooShort", "{part} is too short for a date with hour (YYMMDDHH)"},
    ReasonSentence{"hourTooLong", "{part} is too long for an hour (HH)"},
    ReasonSentence{"hourTooShort", "{part} is too short for an hour (HH)"},
    ReasonSentence{"hourWithMinuteTooLong", "{part} is too long for a time (HHMM)"},
    ReasonSentence{"hourWithMinuteTooShort", "{part} is too short for a time (HHMM)"},
    ReasonSentence{"ibanTooLong", "{part} is too long for an IBAN (at most 34 characters)"},
    ReasonSentence{"ibanTooShort", "{part} is too short for an IBAN"},
    ReasonSentence{"illegalDay", "the day {part} does not exist in that month"},
    ReasonSentence{"illegalHour", "the hour {part} must be 00 to 23"},
    ReasonSentence{"illegalIbanCountryCode", "{part} is not an IBAN country code"},
    ReasonSentence{"illegalMinute", "the minute {part} must be 00 to 59"},
    ReasonSentence{"illegalMonth", "the month {part} must be 01 to 12"},
    ReasonSentence{"illegalSecond", "the second {part} must be 00 to 59"},
    ReasonSentence{"illegalZeroPrefix", "there must be no leading zero {where}"},
    ReasonSentence{"illegalZeroValue", "{part} must not be zero"},
    ReasonSentence{"importerIdxMustBeOneCharacter", "the importer index must be exactly one character"},
    ReasonSentence{"incorrectCheckDigit", "the check digit {part} is wrong; the right check digit is {expected}"},
    ReasonSentence{"incorrectCheckPair", "the check character pair {part} is wrong; the right pair is {expected}"},
    ReasonSentence{"incorrectIbanChecksum", "the IBAN check digits {part} are wrong"},
    ReasonSentence{"invalidBiologicalSexCode", "{part} must be an ISO/IEC 5218 code: 0, 1, 2 or 9"},
    ReasonSentence{"invalidCharacter", "{part} is not allowed there"},
    ReasonSentence{"invalidCset64Padding", "the padding {part} is not allowed there: at most two '=' may end the value, making its length a multiple of 3"},
    ReasonSentence{"invalidCset82Character", "{part} is not in GS1 character set 82"},
    ReasonSentence{"invalidGcpPrefix", "{part} is not a digit: a GS1 Company Prefix starts with at least 4 digits"},
    ReasonSentence{"invalidIbanCharacter", "{part} is not allowed in an IBAN (capital letters and digits only)"},
    ReasonSentence{"invalidImporterIdxCharacter", "the importer index {part} must be a letter, a digit, '-' or '_'"},
    ReasonSentence{"invalidLatitude", "the latitude {part} is above 1800000000 (90 degrees north)"},
    ReasonSentence{"invalidLengthForPieceOfTotal", "{part} must be a piece number followed by a total of the same number of digits"},
    ReasonSentence{"invalidLongitude", "the longitude {part} is above 3600000000 (180 degrees east)"},
    ReasonSentence{"invalidMediaType", "{part} is not a GS1 media type code"},
    ReasonSentence{"invalidPackageType", "{part} is not a UN/ECE Recommendation 21 package type code"},
    ReasonSentence{"invalidPercentSequence", "{part} is not a percent-encoded character (% and two hexadecimal digits)"},
    ReasonSentence{"invalidWindingDirection", "{part} must be 0 (face out), 1 (face in) or 9 (undefined)"},
    ReasonSentence{"latitudeInvalidLength", "a latitude must be 10 digits: {part}"},
    ReasonSentence{"latlongInvalidLength", "a latitude and longitude must be 20 digits: {part}"},
    ReasonSentence{"linterError", "the check {linter} could not run on the value, so it is refused (the operator finds the cause in the server log)"},
    ReasonSentence{"longitudeInvalidLength", "a longitude must be 10 digits: {part}"},
    ReasonSentence{"minuteTooLong", "{part} is too long for minutes (MI)"},
    ReasonSentence{"minuteTooShort", "{part} is too short for minutes (MI)"},
    ReasonSentence{"mmssInvalidLength", "{part} must be minutes (MM) or minutes and seconds (MMSS)"},
    ReasonSentence{"nonDigitCharacter", "{part} is not a digit; only 0 to 9 are allowed there"},
    ReasonSentence{"notHyphen", "{part} must be a hyphen (-)"},
    ReasonSentence{"notIso3166", "{part} is not an ISO 3166 numeric country code"},
    ReasonSentence{"notIso3166Alpha2", "{part} is not an ISO 3166 two-letter country code"},
    ReasonSentence{"notIso3166Or999", "{part} is not an ISO 3166 numeric country code or 999"},
    ReasonSentence{"notIso4217", "{part} is not an ISO 4217 numeric currency code"},
    ReasonSentence{"notZero", "{part} must be all zeros"},
    ReasonSentence{"notZeroOrOne", "{part} must be 0 (no) or 1 (yes)"},
    ReasonSentence{"pieceNumberExceedsTotal", "the piece number is greater than the total in {part}"},
    ReasonSentence{"positionExceedsEnd", "the position is greater than the last position in {part}"},
    ReasonSentence{"positionInSequenceMalformed", "{part} must be a position and a last position separated by '/', without leading zeros (e.g. 3/12)"},
    ReasonSentence{"requiresNonDigitCharacter", "{part} is all digits; it must contain at least one character that is not a digit"},
    ReasonSentence{"secondTooLong", "{part} is too long for seconds (SS)"},
    ReasonSentence{"secondTooShort", "{part} is too short for seconds (SS)"},
    ReasonSentence{"tooLongForCheckPairImplementation", "{part} is too long: a check character pair covers at most 97 characters before it"},
    ReasonSentence{"tooShortForCheckDigit", "the value is empty, so it has no check digit"},
    ReasonSentence{"tooShortForCheckPair", "{part} is too short to end in a check character pair"},
    ReasonSentence{"tooShortForGcp", "{part} is too short to start with a GS1 Company Prefix (at least 4 digits)"},
    ReasonSentence{"zeroPieceNumber", "the piece number {part} must not be zero"},
    ReasonSentence{"zeroTotalPieces", "the total {part} must not be zero"},
    // clang-format on
};

constexpr bool sortedByReason() {
  for (std::size_t i = 1; i < kLinterSentences.size(); ++i) {
    if (!(kLinterSentences[i - 1].reason < kLinterSentences[i].reason)) return false;
  }
  return true;
}
static_assert(sortedByReason(), "kLinterSentences must be sorted by reason, without duplicates");

// The sentences of the service's own codes, keyed by "<form>/<reason>" (the
// form as in engine/validation_codes.h, <n> and <ai> left out). Placeholders:
// {0}..{9} the args, {value}, {part}, {span}, {where} and {position} the
// value as sent and the characters at fault (args offset and length),
// {allowed}, {endDidYouMean} ("; did you mean X?" or "."), {rest} args 1..
// joined, {ai} and {module} from the code, {alternatives} the requirements,
// {query} the characters a query component keeps.
struct CodeSentence {
  std::string_view key;
  std::string_view sentence;
};

constexpr std::string_view kQueryCharacters = "A-Z a-z 0-9 - . _ ~ ! $ ' ( ) * , ; : @ / ?";

constexpr std::array kCodeSentences{
    // clang-format off
    CodeSentence{"ai/format.invalidCharacter", "AI {0}: {span} {where} is not allowed by the format {2}."},
    CodeSentence{"ai/format.tooLong", "AI {0}: {value} is too long for the format {2}; character {position} and those after it are extra."},
    CodeSentence{"ai/format.tooShort", "AI {0}: {value} is too short for the format {2}."},
    CodeSentence{"ai/gtinLength", "AI {0}: a GTIN has 8, 12, 13 or 14 digits, not {2}."},
    CodeSentence{"ai/linterInPadding", "AI {0}: the check {2} ({3}) fails on the zeros added in front of {value} to normalise it; send the value in its full length."},
    CodeSentence{"ai/linterUnknown", "AI {0}: {value} fails the check {2} ({3}) {where}."},
    CodeSentence{"ai/notPrimaryKey", "AI {0} cannot be the primary key: use a GS1 identification key (such as 01, the GTIN) as primaryKey and give AI {0} in ais."},
    CodeSentence{"ai/notPrimaryKey.elementStringOnly", "AI {0} is a primary key only in element strings: leave out the digitalLinkStem, or use a Digital Link primary key such as 01."},
    CodeSentence{"ai/repeatsPrimaryKey", "AI {0} is already the primary key; give it only once."},
    CodeSentence{"ai/unknownAi", "AI '{0}' is not in the GS1 Barcode Syntax Dictionary{endDidYouMean}"},
    CodeSentence{"ais.<n>.digitalLink/", "AI {0} has no place in a Digital Link URI: it is neither a key qualifier of the primary key nor a data attribute; leave it out, or leave out the digitalLinkStem to get an element string."},
    CodeSentence{"ais.qualifiers/", "The key qualifiers {rest} of primary key {0} do not all come from one of its qualifier sequences: {allowed}."},
    CodeSentence{"ais/duplicate", "AI {0} is given more than once (first as ais.{1}); give each AI once."},
    CodeSentence{"context/characters", "context may only contain the characters {query}."},
    CodeSentence{"context/requiresDigitalLinkStem", "context is part of a Digital Link URI: give a digitalLinkStem or leave context out."},
    CodeSentence{"digitalLinkStem/dotSegment", "The digitalLinkStem must not have a '.' or '..' path segment."},
    CodeSentence{"digitalLinkStem/emptySegment", "The digitalLinkStem must not have an empty path segment (//)."},
    CodeSentence{"digitalLinkStem/fragment", "The digitalLinkStem must not have a fragment (#...)."},
    CodeSentence{"digitalLinkStem/host", "The digitalLinkStem must name a host, as in https://id.example.com."},
    CodeSentence{"digitalLinkStem/port", "The digitalLinkStem's port must be a number from 1 to 65535."},
    CodeSentence{"digitalLinkStem/query", "The digitalLinkStem must not have a query (?...)."},
    CodeSentence{"digitalLinkStem/scheme", "The digitalLinkStem must start with http:// or https://."},
    CodeSentence{"digitalLinkStem/syntax", "The digitalLinkStem has characters a URI does not allow."},
    CodeSentence{"digitalLinkStem/userinfo", "The digitalLinkStem must not have a user name or password (user@host)."},
    CodeSentence{"extensionParameters.<n>/emptyKey", "An extension parameter key must not be empty."},
    CodeSentence{"extensionParameters.<n>/keyCharacters", "The extension parameter key '{0}' may only contain the characters {query}."},
    CodeSentence{"extensionParameters.<n>/numericKey", "The extension parameter key '{0}' is all digits and would read as an AI; use a key with at least one non-digit."},
    CodeSentence{"extensionParameters.<n>/reservedKey", "'{0}' cannot be an extension parameter key: linkType and context have fields of their own."},
    CodeSentence{"extensionParameters.<n>/valueCharacters", "The value of extension parameter '{0}' may only contain the characters {query}."},
    CodeSentence{"extensionParameters/duplicateKey", "The extension parameter key '{0}' is given more than once."},
    CodeSentence{"extensionParameters/requiresDigitalLinkStem", "Extension parameters are part of a Digital Link URI: give a digitalLinkStem or leave them out."},
    CodeSentence{"linkType/notAbsoluteHttpUri", "linkType '{0}' is neither a gs1: link type nor an absolute http or https URI{endDidYouMean}"},
    CodeSentence{"linkType/notSelectable", "linkType '{0}' is a GS1 link type only a resolver sets; choose another link type."},
    CodeSentence{"linkType/requiresDigitalLinkStem", "linkType is part of a Digital Link URI: give a digitalLinkStem or leave linkType out."},
    CodeSentence{"linkType/unknownLinkType", "linkType '{0}' is not in the GS1 Web Vocabulary{endDidYouMean}"},
    CodeSentence{"relations.<ai>.excludes.<ai>/", "AIs {0} and {1} must not be used together in one code."},
    CodeSentence{"relations.<ai>.requires/", "AI {ai} needs {alternatives} in the same code."},
    CodeSentence{"rule.<module>/ruleError", "The rule module {module} failed on this code, so the code is refused; the operator finds the cause in the server log."},
    // clang-format on
};

constexpr bool sortedByKey() {
  for (std::size_t i = 1; i < kCodeSentences.size(); ++i) {
    if (!(kCodeSentences[i - 1].key < kCodeSentences[i].key)) return false;
  }
  return true;
}
static_assert(sortedByKey(), "kCodeSentences must be sorted by key, without duplicates");

// Compares `key` with the concatenation first + second, without building it.
int compareJoined(std::string_view key, std::string_view first, std::string_view second) {
  std::string_view head = key.substr(0, std::min(key.size(), first.size()));
  if (int order = head.compare(first.substr(0, head.size())); order != 0 || head.size() < first.size()) {
    return order != 0 ? order : -1;
  }
  return key.substr(first.size()).compare(second);
}

// The sentence keyed by form + reason ("ai/format." + "tooLong"), or empty.
std::string_view codeSentence(std::string_view form, std::string_view reason = {}) {
  auto it = std::lower_bound(kCodeSentences.begin(), kCodeSentences.end(), 0, [&](const CodeSentence& entry, int) {
    return compareJoined(entry.key, form, reason) < 0;
  });
  return (it != kCodeSentences.end() && compareJoined(it->key, form, reason) == 0) ? it->sentence : std::string_view();
}

std::string_view linterSentence(std::string_view reason) {
  auto it =
      std::lower_bound(kLinterSentences.begin(), kLinterSentences.end(), reason,
                       [](const ReasonSentence& entry, std::string_view wanted) { return entry.reason < wanted; });
  return (it != kLinterSentences.end() && it->reason == reason) ? it->sentence : std::string_view();
}

bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::size_t parseIndex(std::string_view text, bool& ok) {
  std::size_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  ok = error == std::errc() && end == text.data() + text.size() && !text.empty();
  return value;
}

bool isIndex(std::string_view text) {
  bool ok = false;
  parseIndex(text, ok);
  return ok;
}

// Text from the request is cut to this many bytes in a message (on a UTF-8
// character boundary, "..." added), so a huge value or key does not appear
// twice, in full, in the answer (AI values are at most 90 characters).
constexpr std::size_t kMaxQuotedBytes = 100;

void appendNumber(std::string& out, std::size_t number) {
  char digits[24];
  auto [end, error] = std::to_chars(digits, digits + sizeof digits, number);
  out.append(digits, static_cast<std::size_t>(end - digits));
}

void appendFromRequest(std::string& out, std::string_view text) {
  if (text.size() <= kMaxQuotedBytes) {
    out += text;
    return;
  }
  std::size_t end = kMaxQuotedBytes;
  while (end > 0 && isContinuationByte(text[end])) --end;
  out += text.substr(0, end);
  out += "...";
}

void appendQuoted(std::string& out, std::string_view text) {
  out += '\'';
  appendFromRequest(out, text);
  out += '\'';
}

// What the placeholders stand for in one error.
struct Fill {
  Fill(const std::vector<std::string>& errorArgs, const MessageFacts& errorFacts)
      : args(errorArgs), facts(errorFacts) {}

  const std::vector<std::string>& args;
  const MessageFacts& facts;
  std::string_view ai;      // {ai}: the AI of a relations code
  std::string_view module;  // {module}
  std::size_t offset = 0;   // the span at fault, in the value as sent
  std::size_t length = 0;
  bool hasSpan = false;
  std::size_t restFrom = 1;  // {rest}: args from this position

  // The span widened to whole UTF-8 characters and clipped to the value.
  std::string_view span() const {
    std::string_view value = facts.valueAsSent;
    std::size_t begin = std::min(offset, value.size());
    std::size_t end = std::min(offset + length, value.size());
    while (begin > 0 && begin < value.size() && isContinuationByte(value[begin])) --begin;
    while (end < value.size() && isContinuationByte(value[end])) ++end;
    return value.substr(begin, end - begin);
  }

  void appendValue(std::string& out) const {
    if (facts.valueAsSent.empty()) {
      out += "the empty value";
    } else {
      appendQuoted(out, facts.valueAsSent);
    }
  }

  // The characters at fault, and where they are when they are not the whole value.
  void appendPart(std::string& out) const {
    std::string_view value = facts.valueAsSent;
    std::string_view at = span();
    if (facts.inPadding) {
      out += "the zeros added in front of ";
      appendQuoted(out, value);
      out += " to normalise it";
    } else if (at.size() == value.size()) {
      appendValue(out);
    } else if (at.empty()) {
      out += "nothing ";
      appendWhere(out);
    } else {
      appendQuoted(out, at);
      out += " (";
      appendPosition(out);
      out += ')';
    }
  }

  void appendWhere(std::string& out) const {
    std::string_view value = facts.valueAsSent;
    if (facts.inPadding) {
      out += "in the zeros added in front of ";
      appendQuoted(out, value);
      out += " to normalise it";
      return;
    }
    if (offset >= value.size()) {
      out += "at the end of ";
      appendQuoted(out, value);
    } else {
      out += "at ";
      appendPosition(out);
    }
  }

  // "character 3 of 'value'", "characters 3 to 4 of 'value'".
  void appendPosition(std::string& out) const {
    std::string_view value = facts.valueAsSent;
    std::size_t first = std::min(offset, value.size()) + 1;
    std::size_t last = std::min(offset + length, value.size());
    if (last <= first) {
      out += "character ";
      appendNumber(out, first);
      out += " of ";
    } else {
      out += "characters ";
      appendNumber(out, first);
      out += " to ";
      appendNumber(out, last);
      out += " of ";
    }
    appendQuoted(out, value);
  }

  // One alternative: "AI 01" or "AIs 01 and 21"; several: "one of 01, 01 with 21 or 8006".
  void appendAlternatives(std::string& out) const {
    // "01+21+8040" -> "01, 21 and 8040" (or "01 with 21 with 8040" in a list)
    auto appendAlternative = [&](std::string_view alternative, std::string_view joiner) {
      for (std::size_t plus = alternative.find('+'); plus != std::string_view::npos; plus = alternative.find('+')) {
        out += alternative.substr(0, plus);
        bool last = alternative.find('+', plus + 1) == std::string_view::npos;
        out += last || joiner != " and " ? joiner : ", ";
        alternative.remove_prefix(plus + 1);
      }
      out += alternative;
    };
    if (args.size() == 1) {
      out += args[0].find('+') == std::string::npos ? "AI " : "AIs ";
      appendAlternative(args[0], " and ");
      return;
    }
    out += "one of ";
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (i != 0) out += i + 1 == args.size() ? " or " : ", ";
      appendAlternative(args[i], " with ");
    }
  }

  void appendPlaceholder(std::string& out, std::string_view name) const {
    if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') {
      std::size_t index = static_cast<std::size_t>(name[0] - '0');
      if (index < args.size()) appendFromRequest(out, args[index]);
    } else if (name == "value") {
      appendValue(out);
    } else if (name == "part") {
      appendPart(out);
    } else if (name == "span") {
      appendQuoted(out, span());
    } else if (name == "where") {
      appendWhere(out);
    } else if (name == "position") {
      appendNumber(out, offset + 1);
    } else if (name == "expected") {
      out += facts.expected;
    } else if (name == "linter") {
      if (args.size() > 2) out += args[2];
    } else if (name == "allowed") {
      out += facts.allowed;
    } else if (name == "endDidYouMean") {
      if (facts.suggestion.empty()) {
        out += '.';
      } else {
        out += "; did you mean ";
        out += facts.suggestion;
        out += '?';
      }
    } else if (name == "rest") {
      for (std::size_t i = restFrom; i < args.size(); ++i) {
        if (i != restFrom) out += ", ";
        appendFromRequest(out, args[i]);
      }
    } else if (name == "ai") {
      out += ai;
    } else if (name == "module") {
      out += module;
    } else if (name == "query") {
      out += kQueryCharacters;
    } else if (name == "alternatives") {
      appendAlternatives(out);
    }
  }

  // Appends `sentence` with its placeholders filled in.
  void appendTo(std::string& out, std::string_view sentence) const {
    while (!sentence.empty()) {
      std::size_t open = sentence.find('{');
      std::size_t close = open == std::string_view::npos ? open : sentence.find('}', open);
      if (close == std::string_view::npos) {
        out += sentence;
        break;
      }
      out += sentence.substr(0, open);
      appendPlaceholder(out, sentence.substr(open + 1, close - open - 1));
      sentence.remove_prefix(close + 1);
    }
  }

  std::string apply(std::string_view sentence) const {
    std::string out;
    out.reserve(sentence.size() + 3 * std::min(facts.valueAsSent.size(), kMaxQuotedBytes) + 32);
    appendTo(out, sentence);
    return out;
  }
};

// A code or reason no table knows (Lua rule modules, Lua linters' own tokens).
std::string genericSentence(std::string_view field, const std::vector<std::string>& args) {
  std::string out = "A rule refused ";
  appendFromRequest(out, field);
  if (!args.empty()) {
    out += " (";
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (i != 0) out += ", ";
      appendFromRequest(out, args[i]);
    }
    out += ')';
  }
  out += '.';
  return out;
}

std::string describeAi(std::string_view field, const std::vector<std::string>& args, const MessageFacts& facts) {
  Fill fill(args, facts);
  if (args.size() < 2) return genericSentence(field, args);
  std::string_view shape = args[1];
  if (shape == "format" && args.size() >= 5) {
    bool ok = false;
    fill.offset = parseIndex(args[4], ok);
    fill.length = 1;
    std::string_view sentence = codeSentence("ai/format.", args[3]);
    if (ok && !sentence.empty()) return fill.apply(sentence);
    return genericSentence(field, args);
  }
  if (shape == "linter" && args.size() >= 6) {
    bool offsetOk = false;
    bool lengthOk = false;
    fill.offset = parseIndex(args[4], offsetOk);
    fill.length = parseIndex(args[5], lengthOk);
    if (!offsetOk || !lengthOk) return genericSentence(field, args);
    if (facts.inPadding) return fill.apply(codeSentence("ai/linterInPadding"));
    std::string_view sentence = linterSentence(args[3]);
    if (sentence.empty()) return fill.apply(codeSentence("ai/linterUnknown"));
    std::string out;
    out.reserve(sentence.size() + 3 * std::min(facts.valueAsSent.size(), kMaxQuotedBytes) + 40);
    out += "AI ";
    appendFromRequest(out, args[0]);
    out += ": ";
    fill.appendTo(out, sentence);
    out += '.';
    return out;
  }
  if (shape == "notPrimaryKey" && facts.elementStringOnly)
    return fill.apply(codeSentence("ai/notPrimaryKey.elementStringOnly"));
  std::string_view sentence = codeSentence("ai/", shape);
  return sentence.empty() ? genericSentence(field, args) : fill.apply(sentence);
}

}  // namespace

std::span<const ReasonSentence> linterReasonSentences() { return kLinterSentences; }

std::string describe(std::string_view code, const std::vector<std::string>& args, const MessageFacts& facts) {
  if (!code.starts_with(codes::kPrefix)) return genericSentence(code, args);
  std::string_view field = code.substr(codes::kPrefix.size());
  Fill fill(args, facts);
  auto reasonSentence = [&](std::string_view form, std::size_t reasonIndex) {
    // `form` ends in '/'
    std::string_view sentence = codeSentence(form, reasonIndex < args.size() ? args[reasonIndex] : "");
    return sentence.empty() ? genericSentence(field, args) : fill.apply(sentence);
  };
  if (field == "primaryKey") return describeAi(field, args, facts);
  if (field == "ais") {
    return args.size() == 2 && isIndex(args[1]) ? fill.apply(codeSentence("ais/duplicate"))
                                                : genericSentence(field, args);
  }
  if (field == "ais.qualifiers") {
    if (args.empty() || facts.allowed.empty()) return genericSentence(field, args);
    return fill.apply(codeSentence("ais.qualifiers/"));
  }
  if (field.starts_with("ais.")) {
    std::string_view rest = field.substr(4);
    if (isIndex(rest)) return describeAi(field, args, facts);
    if (rest.ends_with(".digitalLink") && isIndex(rest.substr(0, rest.size() - 12)) && args.size() == 1) {
      return fill.apply(codeSentence("ais.<n>.digitalLink/"));
    }
    return genericSentence(field, args);
  }
  if (field.starts_with("relations.")) {
    std::string_view rest = field.substr(10);
    std::size_t dot = rest.find('.');
    if (dot == std::string_view::npos) return genericSentence(field, args);
    fill.ai = rest.substr(0, dot);
    std::string_view relation = rest.substr(dot + 1);
    if (relation == "requires" && !args.empty()) return fill.apply(codeSentence("relations.<ai>.requires/"));
    if (relation.starts_with("excludes.") && args.size() == 2) {
      return fill.apply(codeSentence("relations.<ai>.excludes.<ai>/"));
    }
    return genericSentence(field, args);
  }
  if (field == "extensionParameters") return reasonSentence("extensionParameters/", args.size() == 1 ? 0 : 1);
  if (field.starts_with("extensionParameters.") && isIndex(field.substr(20))) {
    return reasonSentence("extensionParameters.<n>/", 1);
  }
  if (field == "digitalLinkStem") return reasonSentence("digitalLinkStem/", 0);
  if (field == "context") return reasonSentence("context/", 0);
  if (field == "linkType") return reasonSentence("linkType/", 1);
  if (field.starts_with("rule.")) {
    fill.module = field.substr(5);
    return reasonSentence("rule.<module>/", 0);
  }
  return genericSentence(field, args);
}

}  // namespace codepayload::messages
