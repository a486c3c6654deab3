#include "common/json_escape.h"

#include <array>
#include <cstdio>
#include <ctime>

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

void appendJsonUtcTime(std::string& out, std::chrono::system_clock::time_point time) {
  const auto sinceEpoch = time.time_since_epoch();
  const auto seconds = std::chrono::floor<std::chrono::seconds>(sinceEpoch);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(sinceEpoch - seconds).count();
  const std::time_t asTimeT = static_cast<std::time_t>(seconds.count());
  std::tm utc{};
  gmtime_r(&asTimeT, &utc);
  char text[40];
  const int length =
      std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                    utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis));
  out.push_back('"');
  out.append(text, static_cast<std::size_t>(length));
  out.push_back('"');
}

}  // namespace codepayload::common
