// UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates (U+D800..
// U+DFFF), nothing above U+10FFFF, no truncated sequence.
#pragma once

#include <cstddef>
#include <string_view>

namespace codepayload::common {

// Decodes the code point that starts at text[index]: on success stores it in
// `codePoint`, moves `index` past it and returns true; on an ill-formed
// sequence returns false and leaves both as they were. `index` must be below
// text.size().
bool decodeUtf8(std::string_view text, std::size_t& index, char32_t& codePoint);

// Whether all of `text` is well-formed UTF-8 (the empty text is).
bool isValidUtf8(std::string_view text);

}  // namespace codepayload::common
