// A direct, escaping-correct JSON writer for CodesResponse (the response hot
// path) and small error bodies.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model.h"

namespace codepayload::json {

// String values are written with common::appendJsonString.
void appendGeneratedCode(std::string& out, std::string_view reference, std::string_view barcodeText,
                         std::string_view hri);
void appendFailure(std::string& out, std::string_view reference, const std::vector<ValidationError>& errors);

}  // namespace codepayload::json
