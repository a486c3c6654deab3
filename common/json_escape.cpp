#include "common/json_escape.h"

#include <array>

namespace codepayload::common {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// Bytes that cannot stand in a JSON string as they are.
constexpr std::array<bool, 256> makeEscapeTable() {
  std::array<bool, 256> table{};
  for (std::size_t c = 0; c < 0x20; ++c) table[c] = true;
  table[static_cast<unsigned char>('"')] = true;
  table[static_cast<unsigned char>('\\')] = true;
  return table;
}
constexpr std::array<bool, 256> kMustEscape = makeEscapeTable();

}  // namespace

void appendJsonString(std::string& out, std::string_view text) {
  out += '"';
  std::size_t clean = 0;  // start of the run not yet copied
  for (std::size_t index = 0; index < text.size(); ++index) {
    const auto c = static_cast<unsigned char>(text[index]);
    if (!kMustEscape[c]) continue;
    out.append(text.data() + clean, index - clean);
    clean = index + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out += kHexDigits[c >> 4];
        out += kHexDigits[c & 0x0F];
    }
  }
  out.append(text.data() + clean, text.size() - clean);
  out += '"';
}

namespace {

void appendDigits(std::string& out, unsigned value, int width) {
  char digits[8];
  for (int index = width - 1; index >= 0; --index) {
    digits[index] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  out.append(digits, static_cast<std::size_t>(width));
}

}  // namespace

void appendJsonUtcTime(std::string& out, std::chrono::system_clock::time_point time) {
  // Calendar arithmetic only: gmtime_r takes glibc's time zone lock, which
  // every request thread writing a log line queued on.
  using namespace std::chrono;
  const sys_days day = floor<days>(time);
  const year_month_day date{day};
  const hh_mm_ss clock{floor<milliseconds>(time - day)};
  out.push_back('"');
  appendDigits(out, static_cast<unsigned>(static_cast<int>(date.year())), 4);
  out.push_back('-');
  appendDigits(out, static_cast<unsigned>(date.month()), 2);
  out.push_back('-');
  appendDigits(out, static_cast<unsigned>(date.day()), 2);
  out.push_back('T');
  appendDigits(out, static_cast<unsigned>(clock.hours().count()), 2);
  out.push_back(':');
  appendDigits(out, static_cast<unsigned>(clock.minutes().count()), 2);
  out.push_back(':');
  appendDigits(out, static_cast<unsigned>(clock.seconds().count()), 2);
  out.push_back('.');
  appendDigits(out, static_cast<unsigned>(clock.subseconds().count()), 3);
  out.append("Z\"");
}

}  // namespace codepayload::common
