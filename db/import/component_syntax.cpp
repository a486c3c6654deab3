#include "db/import/component_syntax.h"

#include "db/import/import_error.h"

namespace codepayload::importer {

namespace {

constexpr std::uint16_t kMaxLength = 99;

[[noreturn]] void refuse(std::string_view token, std::string_view what) {
  std::string message = "component \"";
  message += token;
  message += "\": ";
  message += what;
  throw SyntaxError(message);
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool toCharacterSet(char c, CharacterSet& charset) {
  switch (c) {
    case 'N': charset = CharacterSet::Numeric; return true;
    case 'X': charset = CharacterSet::Cset82; return true;
    case 'Y': charset = CharacterSet::Cset39; return true;
    case 'Z': charset = CharacterSet::Base64Url; return true;
    default: return false;
  }
}

// "5", "20": 1..99 without a leading zero.
std::uint16_t parseLength(std::string_view token, std::string_view digits) {
  if (digits.empty()) refuse(token, "missing length");
  bool valid = digits.size() <= 2 && digits.front() != '0';
  std::uint16_t value = 0;
  for (char c : digits) {
    valid = valid && isDigit(c);
    value = static_cast<std::uint16_t>(value * 10 + (c - '0'));
  }
  if (!valid || value > kMaxLength) {
    refuse(token, "length \"" + std::string(digits) + "\" is not a number from 1 to 99");
  }
  return value;
}

}  // namespace

bool looksLikeComponent(std::string_view token) {
  return !token.empty() && (token.front() == '[' || (token.front() >= 'A' && token.front() <= 'Z'));
}

bool isLinterName(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || isDigit(c))) return false;
  }
  return true;
}

ComponentSpec parseComponent(std::string_view token) {
  ComponentSpec component;
  // Type part: up to the first ',' (the linters follow it).
  const std::size_t comma = token.find(',');
  std::string_view type = token.substr(0, comma);
  if (!type.empty() && type.front() == '[') {
    if (type.back() != ']' || type.size() < 2) refuse(token, "missing \"]\" after the type");
    component.optional = true;
    type = type.substr(1, type.size() - 2);
  } else if (!type.empty() && type.back() == ']') {
    refuse(token, "\"]\" without \"[\"");
  }
  if (type.empty()) refuse(token, "missing character set");
  if (!toCharacterSet(type.front(), component.charset)) {
    refuse(token, "unknown character set \"" + std::string(1, type.front()) + "\" (expected N, X, Y or Z)");
  }
  std::string_view length = type.substr(1);
  if (length.starts_with("..")) {
    component.minLength = 1;
    component.maxLength = parseLength(token, length.substr(2));
  } else {
    component.minLength = component.maxLength = parseLength(token, length);
  }
  // Linters: ",name" repeated.
  std::string_view rest = comma == std::string_view::npos ? std::string_view() : token.substr(comma);
  while (!rest.empty()) {
    rest.remove_prefix(1);  // the ','
    const std::size_t next = rest.find(',');
    const std::string_view name = rest.substr(0, next);
    if (name.empty()) refuse(token, "empty linter name");
    if (!isLinterName(name)) {
      refuse(token, "linter name \"" + std::string(name) + "\" is not lowercase letters and digits");
    }
    for (const std::string& earlier : component.linters) {
      if (earlier == name) refuse(token, "linter \"" + std::string(name) + "\" listed twice");
    }
    component.linters.emplace_back(name);
    rest = next == std::string_view::npos ? std::string_view() : rest.substr(next);
  }
  return component;
}

std::vector<ComponentSpec> parseSpecification(const std::vector<std::string_view>& tokens) {
  if (tokens.empty()) throw SyntaxError("no format specification");
  std::vector<ComponentSpec> components;
  components.reserve(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    ComponentSpec component = parseComponent(tokens[i]);
    if (!components.empty()) {
      const ComponentSpec& previous = components.back();
      if (previous.minLength != previous.maxLength) {
        refuse(tokens[i - 1], "only the last component may have variable length");
      }
      if (previous.optional && !component.optional) {
        refuse(tokens[i], "mandatory component after an optional one");
      }
    }
    components.push_back(std::move(component));
  }
  return components;
}

std::string formatComponent(const ComponentSpec& component) {
  std::string text;
  if (component.optional) text += '[';
  text += static_cast<char>(component.charset);
  if (component.minLength != component.maxLength) text += "..";
  text += std::to_string(component.maxLength);
  if (component.optional) text += ']';
  for (const std::string& linter : component.linters) {
    text += ',';
    text += linter;
  }
  return text;
}

std::string formatSpecification(const std::vector<ComponentSpec>& components) {
  std::string text;
  for (const ComponentSpec& component : components) {
    if (!text.empty()) text += ' ';
    text += formatComponent(component);
  }
  return text;
}

}  // namespace codepayload::importer
