#include "server/symbols/gs1_zint_input.h"

namespace codepayload::server::symbols {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::string characterAt(std::size_t at) { return "character " + std::to_string(at + 1) + " of the element string"; }

}  // namespace

std::optional<std::vector<ElementField>> readElementString(std::string_view text, std::string& fault) {
  std::vector<ElementField> fields;
  std::size_t at = 0;
  if (text.empty()) {
    fault = "The element string is empty.";
    return std::nullopt;
  }
  while (at < text.size()) {
    if (text[at] != '(') {
      fault = "An element string starts each AI with '(' (" + characterAt(at) + ").";
      return std::nullopt;
    }
    const std::size_t close = text.find(')', at);
    const std::size_t digits = close == std::string_view::npos ? 0 : close - at - 1;
    bool numeric = digits >= 2 && digits <= 4;
    for (std::size_t i = at + 1; numeric && i < close; ++i) numeric = isDigit(text[i]);
    if (!numeric) {
      fault = "An AI is 2 to 4 digits between '(' and ')' (" + characterAt(at) + ").";
      return std::nullopt;
    }
    ElementField field{std::string(text.substr(at + 1, digits)), {}};
    at = close + 1;
    while (at < text.size() && text[at] != '(') {
      const char c = text[at];
      if (c == '^') {
        const std::string_view escape = text.substr(at, 4);
        if (escape != "^040" && escape != "^041") {
          fault = "Only ^040 and ^041 are escapes in an element string (" + characterAt(at) + ").";
          return std::nullopt;
        }
        field.second.push_back(escape == "^040" ? '(' : ')');
        at += 4;
        continue;
      }
      if (c <= ' ' || c > '~' || c == '[' || c == ']') {
        fault = "A symbol drawn here holds printable ASCII other than square brackets in its values (" +
                characterAt(at) + ").";
        return std::nullopt;
      }
      field.second.push_back(c);
      ++at;
    }
    if (field.second.empty()) {
      fault = "AI " + field.first + " has no value.";
      return std::nullopt;
    }
    fields.push_back(std::move(field));
  }
  return fields;
}

std::string zintGs1Input(const std::vector<ElementField>& fields) {
  std::string input;
  for (const auto& [ai, value] : fields) {
    if (ai.starts_with("23")) {
      input += "[]" + ai;
    } else {
      input += "[" + ai + "]";
    }
    input += value;
  }
  return input;
}

std::string humanReadableText(const std::vector<ElementField>& fields) {
  std::string text;
  for (const auto& [ai, value] : fields) text += "(" + ai + ")" + value;
  return text;
}

}  // namespace codepayload::server::symbols
