// The attributes of a dictionary entry, in the GS1 Barcode Syntax Dictionary
// notation:
//   req=01+21,02,35nn     one requirement: (01 and 21) or 02 or 35nn; repeatable,
//                         every req= must hold on its own
//   ex=8111,394n          excluded AIs or patterns; repeatable (lists add up)
//   dlpkey                a GS1 Digital Link primary key without qualifiers
//   dlpkey=22,10,21|235   ... with alternative ordered qualifier sequences
// AI patterns are 2 to 4 characters, a digit first, then digits or 'n' (any
// digit). Any other attribute key is refused.
#pragma once

#include <string>
#include <string_view>

#include "engine/dictionary.h"

namespace codepayload::importer {

// Adds what `token` says to `ai`. Throws SyntaxError naming the attribute.
void applyAttribute(std::string_view token, AiDefinition& ai);

// The attributes of `ai` in canonical form: every req= in order, one ex= with
// all excluded patterns, then dlpkey; space-separated, empty when none.
std::string formatAttributes(const AiDefinition& ai);

// "01", "3103": 2 to 4 digits.
bool isAi(std::string_view text);

// isAi, or a pattern with 'n' for any digit ("31nn"); the first character is a digit.
bool isAiPattern(std::string_view text);

}  // namespace codepayload::importer
