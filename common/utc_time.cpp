#include "common/utc_time.h"

namespace codepayload::common {

namespace {

// `value` in exactly `width` decimal digits, leading zeros included.
void appendDigits(std::string& out, unsigned value, int width) {
  char digits[8];
  for (int index = width - 1; index >= 0; --index) {
    digits[index] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  out.append(digits, static_cast<std::size_t>(width));
}

// "2026-11-24T04:04:19" of the second `time` falls in.
void appendUtcDateTime(std::string& out, std::chrono::sys_seconds time) {
  using namespace std::chrono;
  const sys_days day = floor<days>(time);
  const hh_mm_ss clock{time - day};
  appendUtcDate(out, day);
  out.push_back('T');
  appendDigits(out, static_cast<unsigned>(clock.hours().count()), 2);
  out.push_back(':');
  appendDigits(out, static_cast<unsigned>(clock.minutes().count()), 2);
  out.push_back(':');
  appendDigits(out, static_cast<unsigned>(clock.seconds().count()), 2);
}

}  // namespace

void appendUtcDate(std::string& out, std::chrono::sys_days day) {
  const std::chrono::year_month_day date{day};
  appendDigits(out, static_cast<unsigned>(static_cast<int>(date.year())), 4);
  out.push_back('-');
  appendDigits(out, static_cast<unsigned>(date.month()), 2);
  out.push_back('-');
  appendDigits(out, static_cast<unsigned>(date.day()), 2);
}

void appendUtcMillisText(std::string& out, std::chrono::system_clock::time_point time) {
  using namespace std::chrono;
  const sys_seconds second = floor<seconds>(time);
  appendUtcDateTime(out, second);
  out.push_back('.');
  appendDigits(out, static_cast<unsigned>(duration_cast<milliseconds>(time - second).count()), 3);
  out.push_back('Z');
}

std::string httpDate(std::int64_t unixSeconds) {
  using namespace std::chrono;
  static constexpr const char* kWeekdays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const sys_seconds time{seconds(unixSeconds)};
  const sys_days day = floor<days>(time);
  const year_month_day date{day};
  const hh_mm_ss clock{time - day};
  std::string text = kWeekdays[weekday(day).c_encoding()];
  text.append(", ");
  appendDigits(text, static_cast<unsigned>(date.day()), 2);
  text.push_back(' ');
  text.append(kMonths[static_cast<unsigned>(date.month()) - 1]);
  text.push_back(' ');
  appendDigits(text, static_cast<unsigned>(static_cast<int>(date.year())), 4);
  text.push_back(' ');
  appendDigits(text, static_cast<unsigned>(clock.hours().count()), 2);
  text.push_back(':');
  appendDigits(text, static_cast<unsigned>(clock.minutes().count()), 2);
  text.push_back(':');
  appendDigits(text, static_cast<unsigned>(clock.seconds().count()), 2);
  text.append(" GMT");
  return text;
}

std::string utcSecondsText(std::int64_t unixSeconds) {
  std::string text;
  appendUtcDateTime(text, std::chrono::sys_seconds(std::chrono::seconds(unixSeconds)));
  text.push_back('Z');
  return text;
}

}  // namespace codepayload::common
