// Invariant checks shared by the fuzz targets. A violated invariant prints
// where and what, then aborts, so libFuzzer keeps the input as a crash
// reproducer (crash-<sha1>). (std::source_location needs clang 15 with
// libstdc++; __builtin_FILE/__builtin_LINE give the caller's place in clang 14.)
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace codepayload::fuzz {

[[noreturn]] inline void invariantViolated(std::string_view what, std::string_view detail,
                                           const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) {
  std::fprintf(stderr, "\n== invariant violated at %s:%u: %.*s\n", file, line, static_cast<int>(what.size()),
               what.data());
  if (!detail.empty()) std::fprintf(stderr, "== detail: %.*s\n", static_cast<int>(detail.size()), detail.data());
  std::fflush(stderr);
  std::abort();
}

// Aborts with `what` (and `detail`, e.g. the output that broke it) unless `condition` holds.
inline void require(bool condition, std::string_view what, std::string_view detail = {},
                    const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) {
  if (!condition) invariantViolated(what, detail, file, line);
}

}  // namespace codepayload::fuzz
