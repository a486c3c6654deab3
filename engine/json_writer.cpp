#include "engine/json_writer.h"

#include <optional>

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

namespace {

void appendNullableString(std::string& out, const std::optional<std::string_view>& text) {
  if (text) {
    appendJsonString(out, *text);
  } else {
    out += "null";
  }
}

void appendErrors(std::string& out, const std::vector<ValidationError>& errors, bool located) {
  out += "\"errors\":[";
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
    if (located) {
      out += ",\"offset\":";
      out += error.offset ? std::to_string(*error.offset) : "null";
      out += ",\"length\":";
      out += std::to_string(error.length);
    }
    out += '}';
  }
  out += ']';
}

template <typename Pair>
void appendPairs(std::string& out, const std::vector<Pair>& pairs) {
  out += '[';
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i != 0) out += ',';
    out += "{\"key\":";
    appendJsonString(out, pairs[i].key);
    out += ",\"value\":";
    appendJsonString(out, pairs[i].value);
    out += '}';
  }
  out += ']';
}

std::string_view formName(PayloadForm form) {
  switch (form) {
    case PayloadForm::DigitalLink: return "digitalLink";
    case PayloadForm::BracketedElementString: return "elementString";
    case PayloadForm::ScannerData: return "scannerData";
  }
  return "scannerData";
}

// "definition":{...} as /codes takes it (without a reference), with the form
// and the symbology identifier read.
void appendReading(std::string& out, const ParseOutcome& outcome) {
  out += ",\"form\":";
  appendJsonString(out, formName(outcome.payload.form));
  out += ",\"symbologyIdentifier\":";
  appendNullableString(out, outcome.payload.symbologyIdentifier.empty()
                                ? std::nullopt
                                : std::optional<std::string_view>(outcome.payload.symbologyIdentifier));
  const CodeDefinition& definition = outcome.definition;
  out += ",\"definition\":{\"primaryKey\":{\"key\":";
  appendJsonString(out, definition.primaryKey.key);
  out += ",\"value\":";
  appendJsonString(out, definition.primaryKey.value);
  out += "},\"ais\":";
  appendPairs(out, definition.ais);
  out += ",\"extensionParameters\":";
  appendPairs(out, definition.extensionParameters);
  out += ",\"digitalLinkStem\":";
  appendNullableString(out, definition.digitalLinkStem);
  out += ",\"linkType\":";
  appendNullableString(out, definition.linkType);
  out += ",\"context\":";
  appendNullableString(out, definition.context);
  out += '}';
}

}  // namespace

void appendFailure(std::string& out, std::string_view reference, const std::vector<ValidationError>& errors) {
  out += "{\"reference\":";
  appendJsonString(out, reference);
  out += ',';
  appendErrors(out, errors, false);
  out += '}';
}

void appendParsedCode(std::string& out, std::string_view reference, const ParseOutcome& outcome) {
  out += "{\"reference\":";
  appendJsonString(out, reference);
  appendReading(out, outcome);
  out += ",\"elementString\":";
  appendJsonString(out, outcome.elementString);
  out += ",\"hri\":";
  appendJsonString(out, outcome.hri);
  out += ",\"digitalLink\":";
  appendNullableString(out, outcome.digitalLink.empty() ? std::nullopt
                                                        : std::optional<std::string_view>(outcome.digitalLink));
  out += '}';
}

void appendParseFailure(std::string& out, std::string_view reference, const ParseOutcome& outcome) {
  out += "{\"reference\":";
  appendJsonString(out, reference);
  if (outcome.read) {
    appendReading(out, outcome);
  } else {
    out += ",\"form\":null,\"symbologyIdentifier\":null,\"definition\":null";
  }
  out += ',';
  appendErrors(out, outcome.errors, true);
  out += '}';
}

}  // namespace codepayload::json
