// The linter contract: one linter checks one component of an AI value.
//
// A linter is a pure function of the component's characters. It answers
// "fine" or names what is wrong and where, as an offset and a length within
// the component (the engine adds the component's own offset), and owns the
// sentence each of its reasons gets in an error message. The engine owns
// this contract; the C++ linters (plugins/linters) implement it and are listed
// by their GS1 Barcode Syntax Dictionary name in one sorted table, which the
// program assembling a binary hands to the engine (engine/plugin_tables.h). A
// Lua linter in rules/linters/<name>.lua can stand in for a name that has no
// C++ implementation.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace codepayload::lint {

struct LintResult {
  // Stable, camelCase reason token ("incorrectCheckDigit", "invalidDate", ...);
  // null when the component passes. Published in API error args: never rename.
  const char* reason = nullptr;
  std::uint32_t offset = 0;  // first offending character, within the component
  std::uint32_t length = 0;  // how many characters are at fault
  // The characters that would be right in their place, when the linter can
  // name them (a check digit, a check character pair); NUL-padded. Only the
  // error message uses them (engine/validation_messages.h).
  std::array<char, 2> expected{};

  bool ok() const { return reason == nullptr; }
  std::string_view expectedText() const {
    return std::string_view(expected.data(), expected[0] == '\0' ? 0 : (expected[1] == '\0' ? 1 : 2));
  }
};

inline constexpr LintResult kPass{};

inline constexpr LintResult fail(const char* reason, std::size_t offset, std::size_t length) {
  return LintResult{reason, static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(length)};
}

// A failure that names the characters that would be right (at most two).
inline constexpr LintResult failExpecting(const char* reason, std::size_t offset, std::size_t length,
                                          std::string_view expected) {
  LintResult result = fail(reason, offset, length);
  for (std::size_t i = 0; i < expected.size() && i < result.expected.size(); ++i) result.expected[i] = expected[i];
  return result;
}

using LinterFn = LintResult (*)(std::string_view component);

// A reason token and the sentence an error message gives it, after "AI <ai>: "
// (a full stop is added). Placeholders: {part} the characters at fault, with
// their place when they are not the whole value ("'13' (characters 3 to 4 of
// '251301')"), {span} those characters alone, {where} "at character 12 of
// '...'", {value} the whole value as sent, {expected} the right characters,
// {linter} the linter's name (engine/validation_messages.h fills them in).
struct ReasonSentence {
  std::string_view reason;
  std::string_view sentence;
};

using ReasonSentences = std::span<const ReasonSentence>;

// The sentence of `reason` in `sentences`, or empty when it has none.
constexpr std::string_view sentenceOf(ReasonSentences sentences, std::string_view reason) {
  for (const ReasonSentence& entry : sentences) {
    if (entry.reason == reason) return entry.sentence;
  }
  return {};
}

struct LinterEntry {
  std::string_view name;  // dictionary name, e.g. "csum"
  LinterFn fn;
  ReasonSentences (*sentences)();  // every reason fn reports, each with its sentence
};

// A table of linters sorted by name (aliases included), without duplicates.
struct LinterTable {
  const LinterEntry* begin = nullptr;
  const LinterEntry* end = nullptr;

  // The row registered under `name`, or nullptr.
  const LinterEntry* entry(std::string_view name) const {
    const LinterEntry* it =
        std::lower_bound(begin, end, name, [](const LinterEntry& row, std::string_view key) { return row.name < key; });
    return (it != end && it->name == name) ? it : nullptr;
  }

  // The linter registered under `name`, or nullptr.
  LinterFn find(std::string_view name) const {
    const LinterEntry* row = entry(name);
    return row != nullptr ? row->fn : nullptr;
  }
};

}  // namespace codepayload::lint
