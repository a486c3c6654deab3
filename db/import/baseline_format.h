// The project's own text form of a Dictionary: the shipped baseline
// (rules/baseline/dictionary.baseline) that the server imports on first start.
//
// Line-oriented, one record per line, fields separated by one TAB, UTF-8:
//
//   # codepayload rule baseline, format 1
//   # release: 2026-01-27
//   # dictionary: gs1-syntax-dictionary-2026-01-27.txt sha256:<64 hex>
//   # link types: link-types.json sha256:<64 hex>
//   # regenerate: codepayload-import --write-baseline ... (the exact command)
//   # ... further comment lines ...
//   ai	<AI>	<flags>	<specification>	<attributes>	<title>
//   link-type	<id>	<status>	<deprecated>	<restricted>	<uri>	<title>	<description>
//
// The first five lines are the header and are read, not skipped. Flags are
// "-", "*", "?" or "*?"; specification and attributes use the GS1 dictionary
// notation (attributes "-" when none); <deprecated> is "deprecated" or "-";
// <restricted> is a comma-separated list or "-". Titles and descriptions are
// escaped (field_escape.h). One line per AI in AI order, then the link types
// in source order. Blank lines and '#' lines after the header are comments.
#pragma once

#include <string>
#include <string_view>

#include "db/import/parsed_dictionary.h"
#include "engine/dictionary.h"

namespace codepayload::importer {

inline constexpr int kBaselineFormat = 1;
inline constexpr std::string_view kBaselineFileName = "dictionary.baseline";

// The baseline text of `dictionary`. Deterministic: the same Dictionary
// always gives the same bytes.
std::string formatBaseline(const Dictionary& dictionary);

// Reads a baseline; problems throw ImportError "<file>:<line>: <cause>".
// Cross-entry checks (dictionary_checks.h) are run, except the linter
// implementations.
ParsedDictionary parseBaseline(std::string_view text, std::string_view fileName);

}  // namespace codepayload::importer
