// Reads a GS1 Barcode Syntax Dictionary release file (the format documented
// in the header of each release):
//
//   AIs  [Flags]  Specification  [Attributes...]  [# Title]
//
// AIs is one AI or a range whose ends differ in the last digit only
// ("3100-3105", "91-99"); a range becomes one AiDefinition per AI. Flags are
// '*' (fixed length) and '?' (Digital Link data attribute); other characters
// of the reserved flag set are refused. The release name comes from the
// "# Release: YYYY-MM-DD" header line. Blank lines and '#' comment lines are
// skipped. The first problem found is thrown as ImportError "<file>:<line>: <cause>".
#pragma once

#include <string_view>

#include "db/import/parsed_dictionary.h"

namespace codepayload::importer {

// `fileName` names the file in messages and in ReleaseInfo::sourceFile; the
// caller fills in ReleaseInfo::sha256 and the link types. Cross-entry checks
// (dictionary_checks.h) are run, except the linter implementations.
ParsedDictionary parseRelease(std::string_view text, std::string_view fileName);

}  // namespace codepayload::importer
