#include "db/import/field_escape.h"

#include "db/import/import_error.h"

namespace codepayload::importer {

namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string escapeField(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '\\': escaped += "\\\\"; break;
      case '\t': escaped += "\\t"; break;
      case '\n': escaped += "\\n"; break;
      case '\r': escaped += "\\r"; break;
      default:
        if (byte < 0x20 || byte == 0x7F) {
          escaped += "\\x";
          escaped += kHexDigits[byte >> 4];
          escaped += kHexDigits[byte & 0x0F];
        } else {
          escaped += c;
        }
    }
  }
  return escaped;
}

std::string unescapeField(std::string_view field) {
  std::string text;
  text.reserve(field.size());
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] != '\\') {
      text += field[i];
      continue;
    }
    const char kind = i + 1 < field.size() ? field[i + 1] : '\0';
    switch (kind) {
      case '\\': text += '\\'; break;
      case 't': text += '\t'; break;
      case 'n': text += '\n'; break;
      case 'r': text += '\r'; break;
      case 'x': {
        const int high = i + 2 < field.size() ? hexValue(field[i + 2]) : -1;
        const int low = i + 3 < field.size() ? hexValue(field[i + 3]) : -1;
        const int value = high * 16 + low;
        if (high < 0 || low < 0 || !(value < 0x20 || value == 0x7F) || value == '\t' || value == '\n' ||
            value == '\r') {
          throw SyntaxError("bad escape \"" + std::string(field.substr(i, 4)) +
                            "\" (\\x is followed by two uppercase hex digits of a control character)");
        }
        text += static_cast<char>(value);
        i += 2;
        break;
      }
      default:
        throw SyntaxError("bad escape \"" + std::string(field.substr(i, 2)) + "\" (known: \\\\ \\t \\n \\r \\xHH)");
    }
    ++i;
  }
  return text;
}

}  // namespace codepayload::importer
