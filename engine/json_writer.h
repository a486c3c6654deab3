// A direct, escaping-correct JSON writer for CodesResponse (the response hot
// path) and small error bodies.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model.h"
#include "engine/parse_item.h"

namespace codepayload::json {

// String values are written with common::appendJsonString.
void appendGeneratedCode(std::string& out, std::string_view reference, std::string_view barcodeText,
                         std::string_view hri);
void appendFailure(std::string& out, std::string_view reference, const std::vector<ValidationError>& errors);

// A ParseResponse's items: the reference, the form and symbology identifier
// read, the definition read (null when the data is none of the forms), and
// either the texts written again or the errors, each with its place in the data.
void appendParsedCode(std::string& out, std::string_view reference, const ParseOutcome& outcome);
void appendParseFailure(std::string& out, std::string_view reference, const ParseOutcome& outcome);

}  // namespace codepayload::json
