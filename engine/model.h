// The CodesRequest of the interface specification as the engine sees it, and
// the ValidationError of a CodesResponse (the response itself is written as
// JSON directly, engine/json_writer.h). Request strings are views into the
// parsed request buffer; they live as long as the parser that produced them.
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

// An item of a ParseRequest (POST /codes/parse): a payload to read back.
struct CodeReading {
  std::optional<std::string_view> reference;  // absent or null -> position
  std::string_view data;
};

struct ValidationError {
  std::string code;                 // "Validation.Invalid.ais.2"
  std::optional<std::string> path;  // "ais.2", or null
  std::vector<std::string> args;
  // One English sentence for a person (engine/validation_messages.h). It is
  // derived from the fields above and the request; equality compares the
  // published contract (code, path, args) only.
  std::string message{};
  // Parse only: where the fault lies in the data read (characters from 0),
  // and how many characters it spans; unset for a fault of no one place
  // (a relation, a missing AI) and for every /codes fault.
  std::optional<std::size_t> offset{};
  std::size_t length = 0;

  bool operator==(const ValidationError& other) const {
    return code == other.code && path == other.path && args == other.args;
  }
};

}  // namespace codepayload
