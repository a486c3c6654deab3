// Text placed in HTML or XML (an SVG), in an element or an attribute in
// double or single quotes.
#pragma once

#include <string>
#include <string_view>

namespace codepayload::common {

// Appends `text` with the five special characters as entities and a control
// character (which XML 1.0 cannot hold) as U+FFFD; UTF-8 passes unchanged.
void appendMarkupText(std::string& out, std::string_view text);

}  // namespace codepayload::common
