#include "engine/json_writer.h"

#include "common/json_escape.h"

namespace codepayload::json {

using common::appendJsonString;

void appendGeneratedCode(std::string& out, std::string_view reference, std::string_view barcodeText,
                         std::string_view hri) {
  out += "{\"reference\":";
  appendJsonString(out, reference);
  out += ",\"barcodeText\":";
  appendJsonString(out, barcodeText);
  out += ",\"hri\":";
  appendJsonString(out, hri);
  out += '}';
}

void appendFailure(std::string& out, std::string_view reference, const std::vector<ValidationError>& errors) {
  out += "{\"reference\":";
  appendJsonString(out, reference);
  out += ",\"errors\":[";
  for (std::size_t i = 0; i < errors.size(); ++i) {
    const ValidationError& error = errors[i];
    if (i != 0) out += ',';
    out += "{\"code\":";
    appendJsonString(out, error.code);
    out += ",\"path\":";
    if (error.path) {
      appendJsonString(out, *error.path);
    } else {
      out += "null";
    }
    out += ",\"args\":[";
    for (std::size_t j = 0; j < error.args.size(); ++j) {
      if (j != 0) out += ',';
      appendJsonString(out, error.args[j]);
    }
    out += "],\"message\":";
    appendJsonString(out, error.message);
    out += '}';
  }
  out += "]}";
}

}  // namespace codepayload::json
