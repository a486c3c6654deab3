// Escaping of free-text fields (titles, descriptions) in the baseline's
// TAB-separated lines: '\' -> "\\", TAB -> "\t", LF -> "\n", CR -> "\r",
// any other control character -> "\xHH". Nothing else changes, so plain text
// (including UTF-8) reads as itself.
#pragma once

#include <string>
#include <string_view>

namespace codepayload::importer {

std::string escapeField(std::string_view text);

// Throws SyntaxError for a '\' that starts none of the escapes above.
std::string unescapeField(std::string_view field);

}  // namespace codepayload::importer
