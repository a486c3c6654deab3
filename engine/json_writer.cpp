#include "engine/json_writer.h"

namespace codepayload::json {

namespace {

constexpr char kHex[] = "0123456789abcdef";

// Bytes that cannot stand in a JSON string as they are.
struct EscapeTable {
  bool escape[256];
};
constexpr EscapeTable makeEscapeTable() {
  EscapeTable table{};
  for (int c = 0; c < 0x20; ++c) table.escape[c] = true;
  table.escape[static_cast<unsigned char>('"')] = true;
  table.escape[static_cast<unsigned char>('\\')] = true;
  return table;
}
constexpr EscapeTable kEscape = makeEscapeTable();

}  // namespace

void appendString(std::string& out, std::string_view text) {
  out += '"';
  std::size_t clean = 0;  // start of the run not yet copied
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (!kEscape.escape[c]) continue;
    out.append(text.data() + clean, i - clean);
    clean = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0x0F];
    }
  }
  out.append(text.data() + clean, text.size() - clean);
  out += '"';
}

void appendGeneratedCode(std::string& out, std::string_view reference, std::string_view barcodeText,
                         std::string_view hri) {
  out += "{\"reference\":";
  appendString(out, reference);
  out += ",\"barcodeText\":";
  appendString(out, barcodeText);
  out += ",\"hri\":";
  appendString(out, hri);
  out += '}';
}

void appendFailure(std::string& out, std::string_view reference, const std::vector<ValidationError>& errors) {
  out += "{\"reference\":";
  appendString(out, reference);
  out += ",\"errors\":[";
  for (std::size_t i = 0; i < errors.size(); ++i) {
    const ValidationError& error = errors[i];
    if (i != 0) out += ',';
    out += "{\"code\":";
    appendString(out, error.code);
    out += ",\"path\":";
    if (error.path) {
      appendString(out, *error.path);
    } else {
      out += "null";
    }
    out += ",\"args\":[";
    for (std::size_t j = 0; j < error.args.size(); ++j) {
      if (j != 0) out += ',';
      appendString(out, error.args[j]);
    }
    out += "]}";
  }
  out += "]}";
}

}  // namespace codepayload::json
