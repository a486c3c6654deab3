#include "db/import/text_checks.h"

#include <cstdio>

#include "common/utf8.h"

namespace codepayload::importer {

bool isReleaseName(std::string_view name) {
  if (name.size() != 10 || name[4] != '-' || name[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (name[i] < '0' || name[i] > '9') return false;
  }
  const int month = (name[5] - '0') * 10 + (name[6] - '0');
  const int day = (name[8] - '0') * 10 + (name[9] - '0');
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

std::vector<std::string_view> splitFields(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::string lineTextProblem(std::string_view line) {
  for (char c : line) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && byte != '\t') || byte == 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned>(byte));
      return std::string("control character ") + hex;
    }
  }
  if (!common::isValidUtf8(line)) return "not valid UTF-8";
  return {};
}

}  // namespace codepayload::importer
