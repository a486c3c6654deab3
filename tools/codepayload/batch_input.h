// The batches `codepayload` reads besides JSON, built into the JSON body the
// engine takes (a ParseRequest, a CodesRequest), so that every check of an
// item is the engine's, with its codes and messages (docs/decisions.md
// D-Q7..D-Q9):
//   - payloads one a line (parse): LF or CRLF; the line's number is its
//     reference; an empty line is skipped (its number is not reused); a line
//     is taken as it is, a GS (0x1D) byte or spaces included;
//   - CSV (csv.h) with a header row naming the columns. parse: `data` and,
//     optionally, `reference`. generate: `reference`, `primaryKey`, one
//     column per AI named by its number ("01", "10", "3103"), `ext:<key>`
//     per extension parameter, `digitalLinkStem`, `linkType`, `context`.
//     An empty cell is a field not given; an empty reference is the record's
//     line number. A record whose fields are all empty is skipped.
// A fault that leaves no body to build (a malformed record, a header naming
// an unknown or a repeated column, a record without a primary key, text that
// is not UTF-8) throws InputError naming its line (where the record starts)
// and column.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "tools/codepayload/csv.h"

namespace codepayload::cli {

enum class InputFormat { Json, Csv, Lines };

// What parse reads when no format is named: JSON when the first byte after a
// byte order mark and JSON white space is '{', else payloads one a line.
InputFormat detectParseInput(std::string_view text);

// {"codes":[{"reference":"1","data":"..."},...]} of the lines of `text`.
std::string parseRequestFromLines(std::string_view text);

// The same of a CSV with the columns `data` and (optionally) `reference`.
std::string parseRequestFromCsv(std::string_view text);

// Whether an AI is a GS1 Digital Link primary key (the dictionary's dlpkey).
using IsPrimaryKey = std::function<bool(std::string_view ai)>;

// {"codes":[CodeDefinition,...]} of a CSV of definitions. A record's primary
// key is the AI its `primaryKey` cell names; when that cell is empty or the
// column absent, the first AI of the record (in column order) that is a
// Digital Link primary key, else its first AI (the rule of an element string
// read back, D-Q6). The other AIs and the extension parameters keep the
// order of their columns.
std::string codesRequestFromCsv(std::string_view text, const IsPrimaryKey& isPrimaryKey);

}  // namespace codepayload::cli
