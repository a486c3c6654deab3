// Test-only parsers for what the engine writes, used to prove round trips: a GS1 Digital
// Link URI back to its AIs (path and query) and other query parameters, and a
// bracketed element string back to its AIs.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace codepayload {

class Snapshot;

struct ParsedAi {
  std::string key;
  std::string value;
  bool operator==(const ParsedAi&) const = default;
};

struct ParsedDigitalLink {
  std::string stem;                                                  // everything before the primary key segment
  std::vector<ParsedAi> pathAis;                                     // primary key first, then qualifiers
  std::vector<ParsedAi> queryAis;                                    // data attributes, in query order
  std::vector<std::pair<std::string, std::string>> otherParameters;  // extension parameters, linkType, context
};

// Splits `uri` into stem, path AIs and query; nullopt when it is not a
// Digital Link of a known primary key, or an escape is malformed. The path AIs
// are the longest run of /<ai>/<value> pairs at the end of the path that starts
// with a Digital Link primary key and continues with its qualifiers.
std::optional<ParsedDigitalLink> parseDigitalLink(const Snapshot& rules, std::string_view uri);

// "(01)09506000134352(10)AB^040C^041" -> {01, 09506000134352}, {10, AB(C)};
// nullopt when the text is not a sequence of (<digits>)<value>.
std::optional<std::vector<ParsedAi>> parseElementString(std::string_view text);

}  // namespace codepayload
