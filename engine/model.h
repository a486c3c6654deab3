// CodesRequest / CodesResponse of the interface specification, as the engine
// sees them. Request strings are views into the parsed request buffer; they
// live as long as the parser that produced them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload {

struct AiInput {
  std::string_view key;
  std::string_view value;
};

struct ExtensionParameter {
  std::string_view key;
  std::string_view value;
};

struct CodeDefinition {
  std::optional<std::string_view> reference;  // absent or null -> position
  AiInput primaryKey;
  std::vector<AiInput> ais;
  std::vector<ExtensionParameter> extensionParameters;
  std::optional<std::string_view> digitalLinkStem;
  std::optional<std::string_view> linkType;
  std::optional<std::string_view> context;
};

struct ValidationError {
  std::string code;                 // "Validation.Invalid.ais.2"
  std::optional<std::string> path;  // "ais.2", or null
  std::vector<std::string> args;

  bool operator==(const ValidationError&) const = default;
};

struct GeneratedCode {
  std::string reference;
  std::string barcodeText;
  std::string hri;

  bool operator==(const GeneratedCode&) const = default;
};

struct GenerateCodeFailure {
  std::string reference;
  std::vector<ValidationError> errors;

  bool operator==(const GenerateCodeFailure&) const = default;
};

struct CodesResponse {
  std::vector<GeneratedCode> codes;
  std::vector<GenerateCodeFailure> failures;

  void clear() {
    codes.clear();
    failures.clear();
  }
};

}  // namespace codepayload
