// The per-item error codes (ValidationError.code) the service itself
// reports, in one place. A published code is a contract with every caller
// that matches on it: it is never renamed or removed, only added
// (STYLE.md example 2); tests/engine/validation_codes_test.cpp pins the whole
// list. Lua rule modules may report codes of their own, under kPrefix.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace codepayload::codes {

inline constexpr std::string_view kPrefix = "Validation.Invalid.";

// One form a code takes: <n> stands for a position in an array (0-based),
// <ai> for an AI key, <module> for a rule module's name.
struct CodeForm {
  std::string_view pattern;  // "Validation.Invalid.ais.<n>.digitalLink"
  std::string_view meaning;
};

// Every form, in the order they were published; there are kCodeFormCount.
std::span<const CodeForm> codeForms();
inline constexpr std::size_t kCodeFormCount = 17;

// The index in codeForms() of the form `code` takes (<n> and <ai> stand for one
// or more digits, <module> for one or more characters other than '.'), or
// codeForms().size() for a code of no form (a Lua module's own). Allocates
// nothing: the metrics count rejections by form (engine/engine_metrics.h).
std::size_t codeFormIndex(std::string_view code) noexcept;

std::string primaryKey();                              // Validation.Invalid.primaryKey
std::string ai(std::size_t index);                     // Validation.Invalid.ais.<n>
std::string aiKeys();                                  // Validation.Invalid.ais
std::string aiDigitalLink(std::size_t index);          // Validation.Invalid.ais.<n>.digitalLink
std::string qualifiers();                              // Validation.Invalid.ais.qualifiers
std::string relationRequires(std::string_view aiKey);  // Validation.Invalid.relations.<ai>.requires
std::string relationExcludes(std::string_view aiKey, std::string_view otherKey);
// Validation.Invalid.relations.<ai>.excludes.<ai>
std::string extensionParameters();                    // Validation.Invalid.extensionParameters
std::string extensionParameter(std::size_t index);    // Validation.Invalid.extensionParameters.<n>
std::string digitalLinkStem();                        // Validation.Invalid.digitalLinkStem
std::string context();                                // Validation.Invalid.context
std::string linkType();                               // Validation.Invalid.linkType
std::string ruleModule(std::string_view moduleName);  // Validation.Invalid.rule.<module>
// Reading a payload back (POST /codes/parse):
std::string data();                          // Validation.Invalid.data
std::string compressedDigitalLink();         // Validation.Invalid.data.compressedDigitalLink
std::string aiPlacement(std::size_t index);  // Validation.Invalid.ais.<n>.placement
std::string qualifierOrder();                // Validation.Invalid.ais.qualifiers.order

}  // namespace codepayload::codes
