// Table-driven linter tests: each row is an input and the exact verdict
// expected for it (reason token, or pass; offset and length of the span).
// A test reaches its linter through builtinLinters() by the linter's
// dictionary name, so it also proves that the linter's row exists.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>

#include "engine/linter.h"
#include "plugins/linters/linters.h"

namespace codepayload::lint::test {

// A set of reason tokens, as a linter publishes them in API error args.
using Tokens = std::set<std::string_view>;

// The row of builtinLinters() registered under `name`, used like the linter
// function itself. A name without a row fails every call and every
// publishedReasons(), naming the linter, rather than crashing the binary.
class RegisteredLinter {
 public:
  constexpr explicit RegisteredLinter(std::string_view name) : name_(name) {}

  LintResult operator()(std::string_view component) const {
    const LinterEntry* row = entry();
    return row != nullptr ? row->fn(component) : kPass;
  }

  // Every reason the row gives a sentence: the reasons the linter publishes.
  Tokens publishedReasons() const {
    Tokens reasons;
    if (const LinterEntry* row = entry(); row != nullptr) {
      for (const ReasonSentence& sentence : row->sentences()) reasons.insert(sentence.reason);
    }
    return reasons;
  }

 private:
  const LinterEntry* entry() const {
    const LinterEntry* row = builtinLinters().entry(name_);
    if (row == nullptr) ADD_FAILURE() << "no linter is registered under \"" << name_ << "\"";
    return row;
  }

  std::string_view name_;
};

struct LintRow {
  std::string_view input;
  const char* reason;  // nullptr: the input passes
  std::uint32_t offset;
  std::uint32_t length;
};

// A passing row.
inline constexpr LintRow pass(std::string_view input) { return {input, nullptr, 0, 0}; }

// A failing row.
inline constexpr LintRow bad(std::string_view input, const char* reason, std::uint32_t offset, std::uint32_t length) {
  return {input, reason, offset, length};
}

inline void expectRows(const RegisteredLinter& linter, std::initializer_list<LintRow> rows) {
  for (const LintRow& row : rows) {
    SCOPED_TRACE("input \"" + std::string(row.input) + "\"");
    LintResult result = linter(row.input);
    EXPECT_STREQ(result.reason, row.reason);
    EXPECT_EQ(result.offset, row.offset);
    EXPECT_EQ(result.length, row.length);
  }
}

}  // namespace codepayload::lint::test
