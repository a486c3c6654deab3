// JSON string literals (RFC 8259 §7), written by hand where a response or a
// command's output is assembled without a JSON library.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace codepayload::common {

// Appends `text` as a JSON string literal, quotes included. '"' and '\' are
// escaped; BS, FF, LF, CR and HTAB become \b \f \n \r \t; the other control
// characters (U+0000..U+001F) become \u00xx (lower-case hex). Every other byte,
// DEL, '/' and UTF-8 sequences included, is copied as it is: the caller hands
// in valid UTF-8 (or ASCII it produced itself).
void appendJsonString(std::string& out, std::string_view text);

// The most bytes writeJsonString writes for a text of `size` bytes: every
// byte a \u00xx escape, and the quotes.
constexpr std::size_t jsonStringRoom(std::size_t size) { return 6 * size + 2; }

// Writes `text` as appendJsonString does at `out`, which has room for
// jsonStringRoom(text.size()) bytes; returns the end of what it wrote.
char* writeJsonString(char* out, std::string_view text);

// Appends `time` as a JSON string of its UTC date and time to the millisecond:
// "2026-11-24T04:04:19.529Z" (the log lines' `time`).
void appendJsonUtcTime(std::string& out, std::chrono::system_clock::time_point time);

}  // namespace codepayload::common
