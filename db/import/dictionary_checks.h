// Checks over a whole dictionary, shared by the GS1 release parser and the
// baseline reader. Every failure throws ImportError "<file>:<line>: <cause>"
// at the line of the AI concerned.
#pragma once

#include <filesystem>
#include <string_view>

#include "db/import/parsed_dictionary.h"
#include "engine/linter_catalog.h"

namespace codepayload::importer {

// Appends `ai`, read on `line`; AIs must come in strictly ascending order
// (the dictionary keeps lexical order), so duplicates are refused too.
void appendInOrder(ParsedDictionary& parsed, AiDefinition ai, std::size_t line);

// No AI is a prefix of another; every req=/ex= pattern matches an AI of this
// dictionary; every dlpkey qualifier is an AI of this dictionary other than
// the key itself; there is at least one AI.
void checkReferences(const ParsedDictionary& parsed);

// Every linter named has an implementation in `linters`: built in, or
// rulesDir/linters/<name>.lua. The message has one line per missing linter,
// at its first use: linter "x" has no implementation (neither built in nor <path>).
void checkLinterImplementations(const ParsedDictionary& parsed, const LinterCatalog& linters);

}  // namespace codepayload::importer
