// The digitalLinkStem rules of the specification: an http or https origin with
// a host; no userinfo, query or fragment; one trailing slash stripped; no empty
// (or dot) path segments; only URI characters.
#pragma once

#include <string_view>

namespace codepayload {

// Returns the normalised stem (the input minus one trailing slash) and sets
// `reason` to null; or sets `reason` to the first fault ("scheme", "host",
// "port", "userinfo", "query", "fragment", "emptySegment", "dotSegment",
// "syntax") and returns an empty view.
std::string_view checkDigitalLinkStem(std::string_view stem, const char*& reason);

}  // namespace codepayload
