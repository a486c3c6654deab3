// Small helpers shared by several built-in linters (internal to
// plugins/linters): digit tests, character classes, sorted-table lookups and
// calendar checks. Everything is constexpr and allocation-free.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <string_view>

#include "engine/linter.h"
#include "plugins/linters/lint_reasons.h"

namespace codepayload::lint {

// The sentences of the reasons several linters report (engine/linter.h).
namespace sentence {

inline constexpr ReasonSentence kCouponExcessData{reason::kCouponExcessData,
                                                  "the coupon has data left over after its last field: {part}"};
inline constexpr ReasonSentence kCouponMissingSerialNumberVli{
    reason::kCouponMissingSerialNumberVli,
    "the coupon ends where the length digit (VLI) of the serial number should be"};
inline constexpr ReasonSentence kCouponTruncatedOfferCode{reason::kCouponTruncatedOfferCode,
                                                          "the coupon's offer code {where} is cut short"};
inline constexpr ReasonSentence kCouponTruncatedSerialNumber{reason::kCouponTruncatedSerialNumber,
                                                             "the coupon's serial number {where} is cut short"};
inline constexpr ReasonSentence kDateTooLong{reason::kDateTooLong, "{part} is too long for a date (YYMMDD)"};
inline constexpr ReasonSentence kDateTooShort{reason::kDateTooShort, "{part} is too short for a date (YYMMDD)"};
inline constexpr ReasonSentence kIllegalDay{reason::kIllegalDay, "the day {part} does not exist in that month"};
inline constexpr ReasonSentence kIllegalHour{reason::kIllegalHour, "the hour {part} must be 00 to 23"};
inline constexpr ReasonSentence kIllegalMinute{reason::kIllegalMinute, "the minute {part} must be 00 to 59"};
inline constexpr ReasonSentence kIllegalMonth{reason::kIllegalMonth, "the month {part} must be 01 to 12"};
inline constexpr ReasonSentence kIllegalSecond{reason::kIllegalSecond, "the second {part} must be 00 to 59"};
inline constexpr ReasonSentence kIllegalZeroPrefix{reason::kIllegalZeroPrefix, "there must be no leading zero {where}"};
inline constexpr ReasonSentence kInvalidCharacter{reason::kInvalidCharacter, "{part} is not allowed there"};
inline constexpr ReasonSentence kInvalidGcpPrefix{
    reason::kInvalidGcpPrefix, "{part} is not a digit: a GS1 Company Prefix starts with at least 4 digits"};
inline constexpr ReasonSentence kNonDigitCharacter{reason::kNonDigitCharacter,
                                                   "{part} is not a digit; only 0 to 9 are allowed there"};
inline constexpr ReasonSentence kNotIso3166{reason::kNotIso3166, "{part} is not an ISO 3166 numeric country code"};
inline constexpr ReasonSentence kTooShortForGcp{
    reason::kTooShortForGcp, "{part} is too short to start with a GS1 Company Prefix (at least 4 digits)"};

}  // namespace sentence

namespace support {

constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }

constexpr bool isUpperLetter(char c) { return c >= 'A' && c <= 'Z'; }

constexpr unsigned digitValue(char c) { return static_cast<unsigned>(c - '0'); }

// Position of the first character that is not a digit, or text.size().
constexpr std::size_t firstNonDigit(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!isDigit(text[i])) return i;
  }
  return text.size();
}

// Value of two digits at `pos` (the caller has checked they are digits).
constexpr unsigned twoDigitValue(std::string_view text, std::size_t pos) {
  return digitValue(text[pos]) * 10 + digitValue(text[pos + 1]);
}

// Fails with nonDigitCharacter at the first non-digit, if any.
constexpr LintResult requireDigits(std::string_view text) {
  std::size_t pos = firstNonDigit(text);
  if (pos != text.size()) return fail(reason::kNonDigitCharacter, pos, 1);
  return kPass;
}

// A set of single-byte characters, built at compile time from its members.
class CharClass {
 public:
  explicit constexpr CharClass(std::string_view members) {
    for (char c : members) member_[static_cast<unsigned char>(c)] = true;
  }
  constexpr bool contains(char c) const { return member_[static_cast<unsigned char>(c)]; }

 private:
  std::array<bool, 256> member_{};
};

// Binary search in a table that the caller keeps sorted (checked by
// static_assert next to each table).
template <typename Table, typename Key>
constexpr bool inSortedTable(const Table& table, const Key& key) {
  return std::binary_search(std::begin(table), std::end(table), key);
}

// The three-digit value of `text` if it is exactly three digits, or -1.
constexpr int threeDigitCode(std::string_view text) {
  if (text.size() != 3 || !isDigit(text[0]) || !isDigit(text[1]) || !isDigit(text[2])) return -1;
  return static_cast<int>(digitValue(text[0]) * 100 + digitValue(text[1]) * 10 + digitValue(text[2]));
}

constexpr bool isLeapYear(unsigned year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

// Checks MM and DD of an all-digit date whose MM starts at `monthPos`; a day
// of 00 is accepted here (callers that forbid it check it themselves).
constexpr LintResult checkMonthAndDay(std::string_view date, std::size_t monthPos, unsigned year) {
  constexpr unsigned kDaysInMonth[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  unsigned month = twoDigitValue(date, monthPos);
  if (month < 1 || month > 12) return fail(reason::kIllegalMonth, monthPos, 2);
  unsigned maxDay = (month == 2 && !isLeapYear(year)) ? 28 : kDaysInMonth[month - 1];
  if (twoDigitValue(date, monthPos + 2) > maxDay) return fail(reason::kIllegalDay, monthPos + 2, 2);
  return kPass;
}

// Where a truncated coupon field is reported: the rest of the data, or the
// whole data when nothing is left (as the reference coupon linters do).
constexpr LintResult couponTruncated(const char* why, std::size_t pos, std::size_t size) {
  return pos == size ? fail(why, 0, size) : fail(why, pos, size - pos);
}

}  // namespace support

}  // namespace codepayload::lint
