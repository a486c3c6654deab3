#include "engine/validation_codes.h"

#include <array>

namespace codepayload::codes {

namespace {

constexpr std::array kForms{
    CodeForm{"Validation.Invalid.primaryKey", "the primary key: unknown AI, not a primary key, or its value"},
    CodeForm{"Validation.Invalid.ais.<n>", "AI <n>: unknown, or its value (format, linters)"},
    CodeForm{"Validation.Invalid.ais", "an AI key given more than once"},
    CodeForm{"Validation.Invalid.ais.<n>.digitalLink", "AI <n> has no place in a Digital Link URI"},
    CodeForm{"Validation.Invalid.ais.qualifiers", "the key qualifiers are not in an allowed sequence"},
    CodeForm{"Validation.Invalid.relations.<ai>.requires", "AI <ai> needs an AI that is missing"},
    CodeForm{"Validation.Invalid.relations.<ai>.excludes.<ai>", "two AIs that exclude each other"},
    CodeForm{"Validation.Invalid.extensionParameters", "extension parameters without a stem, or a repeated one"},
    CodeForm{"Validation.Invalid.extensionParameters.<n>", "extension parameter <n>"},
    CodeForm{"Validation.Invalid.digitalLinkStem", "the digitalLinkStem"},
    CodeForm{"Validation.Invalid.context", "the context"},
    CodeForm{"Validation.Invalid.linkType", "the linkType"},
    CodeForm{"Validation.Invalid.rule.<module>", "a Lua rule module failed (the item fails closed)"},
    CodeForm{"Validation.Invalid.data", "parse: the data is none of the forms a payload takes"},
    CodeForm{"Validation.Invalid.data.compressedDigitalLink", "parse: a compressed Digital Link URI (not read)"},
    CodeForm{"Validation.Invalid.ais.<n>.placement", "parse: AI <n> on the wrong side of a Digital Link's '?'"},
    CodeForm{"Validation.Invalid.ais.qualifiers.order", "parse: a Digital Link's key qualifiers out of GS1's order"},
};
static_assert(kForms.size() == kCodeFormCount);

// Whether `code` takes the form `pattern` (see codeFormIndex).
bool takesForm(std::string_view code, std::string_view pattern) noexcept {
  while (!pattern.empty()) {
    if (pattern.front() != '<') {
      if (code.empty() || code.front() != pattern.front()) return false;
      code.remove_prefix(1);
      pattern.remove_prefix(1);
      continue;
    }
    const std::size_t close = pattern.find('>');
    const std::string_view placeholder = pattern.substr(0, close + 1);
    pattern.remove_prefix(close + 1);
    const bool digits = placeholder != "<module>";
    std::size_t length = 0;
    while (length < code.size() && (digits ? (code[length] >= '0' && code[length] <= '9') : code[length] != '.')) {
      ++length;
    }
    if (length == 0) return false;
    code.remove_prefix(length);
  }
  return code.empty();
}

std::string code(std::string_view rest) {
  std::string text(kPrefix);
  text.append(rest);
  return text;
}

}  // namespace

std::span<const CodeForm> codeForms() { return kForms; }

std::size_t codeFormIndex(std::string_view code) noexcept {
  for (std::size_t index = 0; index < kForms.size(); ++index) {
    if (takesForm(code, kForms[index].pattern)) return index;
  }
  return kForms.size();
}

std::string primaryKey() { return code("primaryKey"); }
std::string ai(std::size_t index) { return code("ais." + std::to_string(index)); }
std::string aiKeys() { return code("ais"); }
std::string aiDigitalLink(std::size_t index) { return code("ais." + std::to_string(index) + ".digitalLink"); }
std::string qualifiers() { return code("ais.qualifiers"); }
std::string relationRequires(std::string_view aiKey) { return code("relations." + std::string(aiKey) + ".requires"); }
std::string relationExcludes(std::string_view aiKey, std::string_view otherKey) {
  return code("relations." + std::string(aiKey) + ".excludes." + std::string(otherKey));
}
std::string extensionParameters() { return code("extensionParameters"); }
std::string extensionParameter(std::size_t index) { return code("extensionParameters." + std::to_string(index)); }
std::string digitalLinkStem() { return code("digitalLinkStem"); }
std::string context() { return code("context"); }
std::string linkType() { return code("linkType"); }
std::string ruleModule(std::string_view moduleName) { return code("rule." + std::string(moduleName)); }
std::string data() { return code("data"); }
std::string compressedDigitalLink() { return code("data.compressedDigitalLink"); }
std::string aiPlacement(std::size_t index) { return code("ais." + std::to_string(index) + ".placement"); }
std::string qualifierOrder() { return code("ais.qualifiers.order"); }

}  // namespace codepayload::codes
