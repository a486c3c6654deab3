// JSON string literals (RFC 8259 §7), written by hand where a response or a
// command's output is assembled without a JSON library.
#pragma once

#include <string>
#include <string_view>

namespace codepayload::common {

// Appends `text` as a JSON string literal, quotes included. '"' and '\' are
// escaped; BS, FF, LF, CR and HTAB become \b \f \n \r \t; the other control
// characters (U+0000..U+001F) become \u00xx (lower-case hex). Every other byte,
// DEL, '/' and UTF-8 sequences included, is copied as it is: the caller hands
// in valid UTF-8 (or ASCII it produced itself).
void appendJsonString(std::string& out, std::string_view text);

}  // namespace codepayload::common
