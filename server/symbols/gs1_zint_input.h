// The service's GS1 element string as zint's GS1 input. The element string
// writes each AI as "(<ai>)<value>" with parentheses inside a value escaped as
// ^040 and ^041 (D-E2); zint takes "[<ai>]<value>" with the value's
// parentheses as they are, and places the FNC1 separators itself: after every
// value whose AI is not of a pre-defined length, except the last.
//
// One exception, zint's and not GS1's: every zint release up to 2.16 counts
// the AIs that begin with "23" among those of a pre-defined length (a table
// older than AI 235, which is variable length), so it writes no FNC1 after
// such a value and the next AI would be read as part of it. Such an AI is
// written as zint's empty AI, "[]" followed by the AI's digits and value:
// zint copies its data as it is and always writes an FNC1 before the next AI
// (after an empty AI it knows no length), whether or not the release has the
// old table, so the symbol holds exactly the element GS1 asks for. The empty AI
// needs zint's GS1NOCHECK_MODE, which the symbols are drawn in anyway (the
// service has checked every AI; zint 2.11 would refuse newer AIs).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace codepayload::server::symbols {

// One AI of an element string: its digits and its value, unescaped.
using ElementField = std::pair<std::string, std::string>;

// The AIs of an element string, in its order; nullopt with the reason in
// `fault` when the text is not one this service writes: text before the
// first "(", an AI that is not 2 to 4 digits, an empty value, a '^' other
// than ^040 or ^041, or a character outside printable ASCII or a square
// bracket (which zint's input cannot carry).
std::optional<std::vector<ElementField>> readElementString(std::string_view elementString, std::string& fault);

// The zint GS1_MODE | GS1NOCHECK_MODE input for these AIs:
// "[01]09520123456788[10]AB(C)", an AI that begins with "23" as "[]235..."
// (above).
std::string zintGs1Input(const std::vector<ElementField>& fields);

// The human readable text of these AIs, as the service prints it:
// "(01)09520123456788(10)AB(C)".
std::string humanReadableText(const std::vector<ElementField>& fields);

}  // namespace codepayload::server::symbols
