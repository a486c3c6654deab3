// The engine's answers written as CSV (csv.h), one record per item of the
// request in the request's order, accepted and failed alike, after a header
// row (docs/decisions.md D-Q10, D-Q44):
//   generate: reference,barcodeText,hri,errors
//   parse:    reference,form,symbologyIdentifier,primaryKey,<AIs>,<ext:keys>,
//             digitalLinkStem,linkType,context,elementString,hri,digitalLink,errors
// The parse answer's definition is in generate's own CSV columns: one column
// per AI and per extension parameter read anywhere in the batch, each in the
// order first met. A null is an empty cell; `errors` is empty for an accepted
// item and, for a failed one, each error as "<code> <path>: <message>"
// ("<code>: <message>" when it has no path), joined by " | ".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace codepayload::cli {

// `response` is a CodesResponse or ParseResponse as the engine wrote it and
// `accepted` the engine's verdict on each item, in the request's order
// (PayloadEngine::generateJson, parseJson). Throws std::runtime_error when
// the two disagree.
std::string codesResponseToCsv(std::string_view response, const std::vector<bool>& accepted);
std::string parseResponseToCsv(std::string_view response, const std::vector<bool>& accepted);

}  // namespace codepayload::cli
