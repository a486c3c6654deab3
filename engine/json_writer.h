// A direct, escaping-correct JSON writer for CodesResponse (the response hot
// path) and small error bodies.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model.h"

namespace codepayload::json {

// Appends `text` as a JSON string literal (with quotes). Control characters
// become \uXXXX (or \n, \t, ...); '"' and '\' are escaped; other bytes are
// copied (the input was validated UTF-8, or is ASCII we produced).
void appendString(std::string& out, std::string_view text);

void appendGeneratedCode(std::string& out, std::string_view reference, std::string_view barcodeText,
                         std::string_view hri);
void appendFailure(std::string& out, std::string_view reference, const std::vector<ValidationError>& errors);

}  // namespace codepayload::json
