// Reads the GS1 Web Vocabulary link types (link-types.json): a JSON array of
// objects with "id", "title", "description", "uri", "status", "deprecated",
// "restricted" and "domain" (accepted, not kept). Every entry becomes a
// LinkType, in file order; selectable is false exactly for the types
// restricted to "resolver". Any other key, a missing key, a wrong type or a
// repeated id is refused: ImportError "<file>: entry <n> (<id>): <cause>".
#pragma once

#include <string_view>
#include <vector>

#include "engine/dictionary.h"

namespace codepayload::importer {

std::vector<LinkType> parseLinkTypes(std::string_view json, std::string_view fileName);

// The one rule for selectable: not restricted to "resolver".
bool isSelectable(const std::vector<std::string>& restricted);

// Text free of whitespace and control characters (commas allowed): ids, URIs.
bool isUnbrokenText(std::string_view text);

// Text that may stand in a TAB-separated field and in a comma-separated list
// unescaped: non-empty, no whitespace, no control characters, no ','.
bool isPlainToken(std::string_view text);

}  // namespace codepayload::importer
