// The GS1 Barcode Syntax Dictionary notation of a format specification:
// whitespace-separated components "Type[,linter...]", e.g. "N14,csum,gcppos2",
// "[X..17]" (optional), "[N3],iso3166". Type is a character set N, X, Y or Z
// followed by a fixed length ("N5") or a maximum ("N..20", length 1 to 20);
// lengths are 1 to 99. Only the last component may have variable length, and
// no mandatory component may follow an optional one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/dictionary.h"

namespace codepayload::importer {

// Whether `token` is meant as a component (starts with '[' or 'A'..'Z').
bool looksLikeComponent(std::string_view token);

// One component token. Throws SyntaxError: component "<token>": <what>.
ComponentSpec parseComponent(std::string_view token);

// The components of one specification, with the rules between them.
// Throws SyntaxError.
std::vector<ComponentSpec> parseSpecification(const std::vector<std::string_view>& tokens);

// The inverse: "N14,csum,gcppos2", "[N3],iso3166"; components joined by ' '.
std::string formatComponent(const ComponentSpec& component);
std::string formatSpecification(const std::vector<ComponentSpec>& components);

// Linter names: 1 to 64 of 'a'..'z', '0'..'9'.
bool isLinterName(std::string_view name);

}  // namespace codepayload::importer
