// Table-driven linter tests: each row is an input and the exact verdict
// expected for it (reason token, or pass; offset and length of the span).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "engine/linter.h"

namespace codepayload::lint::test {

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

inline void expectRows(LinterFn linter, std::initializer_list<LintRow> rows) {
  for (const LintRow& row : rows) {
    SCOPED_TRACE("input \"" + std::string(row.input) + "\"");
    LintResult result = linter(row.input);
    EXPECT_STREQ(result.reason, row.reason);
    EXPECT_EQ(result.offset, row.offset);
    EXPECT_EQ(result.length, row.length);
  }
}

}  // namespace codepayload::lint::test
