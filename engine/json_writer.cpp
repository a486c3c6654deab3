#include "engine/json_writer.h"

#include <algorithm>
#include <optional>

#include "common/json_escape.h"

namespace codepayload::json {

using common::appendJsonString;

namespace {

// Three ways to write an answer's pieces. An accepted item's answer is a
// dozen or more short pieces: it is measured first (Room) and then written
// through a pointer (Text) and appended at once, which costs far less than a
// capacity check and a copy call per piece. Failures go straight into the
// string (Appended).
struct Room {
  std::size_t bytes = 0;
  template <std::size_t N>
  void literal(const char (&)[N]) {
    bytes += N - 1;
  }
  void string(std::string_view text) { bytes += common::jsonStringRoom(text.size()); }
};

struct Text {
  char* at;
  template <std::size_t N>
  void literal(const char (&text)[N]) {
    at = std::copy_n(text, N - 1, at);
  }
  void string(std::string_view text) { at = common::writeJsonString(at, text); }
};

struct Appended {
  std::string& out;
  template <std::size_t N>
  void literal(const char (&text)[N]) {
    out.append(text, N - 1);
  }
  void string(std::string_view text) { appendJsonString(out, text); }
};

// Appends what `write` writes, measured and then written at once. The same
// `write` does both, so the room is enough by construction.
template <typename Write>
void appendMeasured(std::string& out, Write write) {
  Room room;
  write(room);
  thread_local std::string scratch;
  if (scratch.size() < room.bytes) scratch.resize(room.bytes);
  Text text{scratch.data()};
  write(text);
  out.append(scratch.data(), static_cast<std::size_t>(text.at - scratch.data()));
}

template <typename Sink>
void writeNullable(Sink& sink, const std::optional<std::string_view>& text) {
  if (text) {
    sink.string(*text);
  } else {
    sink.literal("null");
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

template <typename Sink, typename Pair>
void writePairs(Sink& sink, const std::vector<Pair>& pairs) {
  sink.literal("[");
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i != 0) sink.literal(",");
    sink.literal("{\"key\":");
    sink.string(pairs[i].key);
    sink.literal(",\"value\":");
    sink.string(pairs[i].value);
    sink.literal("}");
  }
  sink.literal("]");
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
template <typename Sink>
void writeReading(Sink& sink, const ParseOutcome& outcome) {
  sink.literal(",\"form\":");
  sink.string(formName(outcome.payload.form));
  sink.literal(",\"symbologyIdentifier\":");
  writeNullable(sink, outcome.payload.symbologyIdentifier.empty()
                          ? std::nullopt
                          : std::optional<std::string_view>(outcome.payload.symbologyIdentifier));
  const CodeDefinition& definition = outcome.definition;
  sink.literal(",\"definition\":{\"primaryKey\":{\"key\":");
  sink.string(definition.primaryKey.key);
  sink.literal(",\"value\":");
  sink.string(definition.primaryKey.value);
  sink.literal("},\"ais\":");
  writePairs(sink, definition.ais);
  sink.literal(",\"extensionParameters\":");
  writePairs(sink, definition.extensionParameters);
  sink.literal(",\"digitalLinkStem\":");
  writeNullable(sink, definition.digitalLinkStem);
  sink.literal(",\"linkType\":");
  writeNullable(sink, definition.linkType);
  sink.literal(",\"context\":");
  writeNullable(sink, definition.context);
  sink.literal("}");
}

}  // namespace

void appendGeneratedCode(std::string& out, std::string_view reference, std::string_view barcodeText,
                         std::string_view hri) {
  appendMeasured(out, [&](auto& sink) {
    sink.literal("{\"reference\":");
    sink.string(reference);
    sink.literal(",\"barcodeText\":");
    sink.string(barcodeText);
    sink.literal(",\"hri\":");
    sink.string(hri);
    sink.literal("}");
  });
}

void appendFailure(std::string& out, std::string_view reference, const std::vector<ValidationError>& errors) {
  out += "{\"reference\":";
  appendJsonString(out, reference);
  out += ',';
  appendErrors(out, errors, false);
  out += '}';
}

void appendParsedCode(std::string& out, std::string_view reference, const ParseOutcome& outcome) {
  appendMeasured(out, [&](auto& sink) {
    sink.literal("{\"reference\":");
    sink.string(reference);
    writeReading(sink, outcome);
    sink.literal(",\"elementString\":");
    sink.string(outcome.elementString);
    sink.literal(",\"hri\":");
    sink.string(outcome.hri);
    sink.literal(",\"digitalLink\":");
    writeNullable(sink, outcome.digitalLink.empty() ? std::nullopt
                                                    : std::optional<std::string_view>(outcome.digitalLink));
    sink.literal("}");
  });
}

void appendParseFailure(std::string& out, std::string_view reference, const ParseOutcome& outcome) {
  out += "{\"reference\":";
  appendJsonString(out, reference);
  if (outcome.read) {
    Appended sink{out};
    writeReading(sink, outcome);
  } else {
    out += ",\"form\":null,\"symbologyIdentifier\":null,\"definition\":null";
  }
  out += ',';
  appendErrors(out, outcome.errors, true);
  out += '}';
}

}  // namespace codepayload::json
