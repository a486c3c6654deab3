// Try it (/dashboard/data/try-it/generate and try-it/parse): one definition
// generated, or one payload read back, by the engine the API calls
// (PayloadEngine::generateJson, parseJson, with a one-item body written
// here), and its symbol drawn (server/symbols/). Nothing is stored, counted
// as an API client's usage or audited: nothing changes.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

#include <stdexcept>

#include "app/request_error_code.h"
#include "common/json_escape.h"
#include "server/dashboard/endpoints/dashboard_endpoints.h"
#include "server/symbols/symbol_svg.h"

namespace codepayload::server::dashboard {

namespace {

// A JSON value of the page's body written again as JSON text: what the
// engine then reads with its own checks (a wrong type gets its WrongType).
void appendJson(std::string& out, const Poco::Dynamic::Var& value) {
  if (value.isEmpty()) {
    out += "null";
  } else if (value.isString()) {
    common::appendJsonString(out, value.extract<std::string>());
  } else if (value.type() == typeid(Poco::JSON::Object::Ptr)) {
    const Poco::JSON::Object::Ptr object = value.extract<Poco::JSON::Object::Ptr>();
    out.push_back('{');
    bool first = true;
    for (const auto& [name, member] : *object) {
      if (!first) out.push_back(',');
      first = false;
      common::appendJsonString(out, name);
      out.push_back(':');
      appendJson(out, member);
    }
    out.push_back('}');
  } else if (value.type() == typeid(Poco::JSON::Array::Ptr)) {
    const Poco::JSON::Array::Ptr array = value.extract<Poco::JSON::Array::Ptr>();
    out.push_back('[');
    for (std::size_t index = 0; index < array->size(); ++index) {
      if (index > 0) out.push_back(',');
      appendJson(out, array->get(static_cast<unsigned int>(index)));
    }
    out.push_back(']');
  } else if (value.isBoolean()) {
    out += value.extract<bool>() ? "true" : "false";
  } else {
    out += value.convert<std::string>();  // a number
  }
}

// The engine's refusal of the one-item body, as the page's: the path and
// the sentence without the item's "codes.0." (the page sent one definition).
Refusal requestRefusal(const RequestError& error) {
  constexpr std::string_view kItem = "codes.0.";
  std::string path = error.path.starts_with(kItem) ? error.path.substr(kItem.size()) : error.path;
  std::string message = error.message.starts_with(kItem) ? error.message.substr(kItem.size()) : error.message;
  return Refusal{400, std::string(app::requestErrorCode(error.kind)),
                 path.empty() ? std::nullopt : std::optional<std::string>(std::move(path)), std::move(message)};
}

// The one item of the engine's answer to a one-item body,
// {"<accepted>":[ITEM],"<refused>":[]} or {"<accepted>":[],"<refused>":[ITEM]},
// without its reference (the position "0": the page sent none).
struct OneItem {
  bool accepted = false;
  std::string json;
};

OneItem oneItem(std::string_view out, std::string_view accepted, std::string_view refused) {
  const std::string open = "{\"" + std::string(accepted) + "\":[";
  const std::string middle = "],\"" + std::string(refused) + "\":[";
  OneItem item;
  std::string_view rest = out;
  if (!rest.starts_with(open) || !rest.ends_with("]}")) throw std::logic_error("the engine's answer has another shape");
  rest = rest.substr(open.size(), rest.size() - open.size() - 2);
  if (rest.starts_with("]")) {
    if (!rest.starts_with(middle)) throw std::logic_error("the engine's answer has another shape");
    rest.remove_prefix(middle.size());
  } else {
    if (!rest.ends_with(middle)) throw std::logic_error("the engine's answer has another shape");
    rest.remove_suffix(middle.size());
    item.accepted = true;
  }
  constexpr std::string_view kReference = "{\"reference\":\"0\",";
  if (!rest.starts_with(kReference)) throw std::logic_error("the engine's item has another shape");
  item.json = "{" + std::string(rest.substr(kReference.size()));
  return item;
}

Poco::JSON::Object::Ptr objectOf(const std::string& json) {
  return Poco::JSON::Parser().parse(json).extract<Poco::JSON::Object::Ptr>();
}

// {"symbology","label","svg","problem"}: the symbol drawn, or why it is not.
std::string symbolJson(symbols::Symbology symbology, std::string_view text) {
  std::string fault;
  const std::optional<symbols::Symbol> symbol = symbology == symbols::Symbology::QrCode
                                                    ? symbols::drawQrCode(text, fault)
                                                    : symbols::drawGs1DataMatrix(text, fault);
  std::string out = "{";
  stringMember(out, "symbology", symbols::symbologyName(symbology));
  if (symbol) {
    stringMember(out, "label", symbol->label);
    stringMember(out, "svg", symbol->svg);
    member(out, "problem");
    out += "null}";
  } else {
    member(out, "label");
    out += "null";
    member(out, "svg");
    out += "null";
    stringMember(out, "problem", fault);
    out.push_back('}');
  }
  return out;
}

// The answer {"<accepted>":ITEM|null,"failure":ITEM|null,"symbol":SYMBOL|null}.
void sendTryIt(Call& call, std::string_view acceptedName, const OneItem& item, const std::string& symbol) {
  std::string out = "{";
  member(out, acceptedName);
  out += item.accepted ? item.json : "null";
  member(out, "failure");
  out += item.accepted ? "null" : item.json;
  member(out, "symbol");
  out += symbol.empty() ? "null" : symbol;
  out.push_back('}');
  sendJson(call, 200, out);
}

}  // namespace

void tryItGenerate(Call& call) {
  std::string body = "{\"codes\":[{";
  bool first = true;
  for (const auto& [name, value] : *call.body) {
    if (name == "reference") continue;
    if (!first) body.push_back(',');
    first = false;
    common::appendJsonString(body, name);
    body.push_back(':');
    appendJson(body, value);
  }
  body += "}]}";
  std::string out;
  RequestError error{RequestError::Kind::InvalidJson, {}, {}};
  if (!call.engine.generateJson(body, out, error)) throw requestRefusal(error);
  const OneItem item = oneItem(out, "codes", "failures");
  std::string symbol;
  if (item.accepted) {
    const std::string text = objectOf(item.json)->getValue<std::string>("barcodeText");
    // An element string starts with its first AI's "("; anything else is a Digital Link URI.
    symbol = symbolJson(text.starts_with('(') ? symbols::Symbology::Gs1DataMatrix : symbols::Symbology::QrCode, text);
  }
  sendTryIt(call, "code", item, symbol);
}

void tryItParse(Call& call) {
  std::string body = "{\"codes\":[{\"data\":";
  common::appendJsonString(body, stringField(call, "data"));
  body += "}]}";
  std::string out;
  RequestError error{RequestError::Kind::InvalidJson, {}, {}};
  if (!call.engine.parseJson(body, out, error)) throw requestRefusal(error);
  const OneItem item = oneItem(out, "parsed", "failures");
  std::string symbol;
  if (item.accepted) {
    const Poco::JSON::Object::Ptr parsed = objectOf(item.json);
    // The symbol this service draws for what was read: a Digital Link's URI
    // as it writes it, in a QR Code; else its element string, in a GS1 DataMatrix.
    symbol = parsed->getValue<std::string>("form") == "digitalLink"
                 ? symbolJson(symbols::Symbology::QrCode, parsed->getValue<std::string>("digitalLink"))
                 : symbolJson(symbols::Symbology::Gs1DataMatrix, parsed->getValue<std::string>("elementString"));
  }
  sendTryIt(call, "parsed", item, symbol);
}

}  // namespace codepayload::server::dashboard
