#include "tools/codepayload/batch_output.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/csv_text.h"

namespace codepayload::cli {

namespace {

// A string member of `item`; "" for null.
std::string_view text(simdjson::dom::element item, std::string_view field) {
  const simdjson::dom::element value = item[field];
  return value.is_null() ? std::string_view() : std::string_view(value.get_string());
}

std::string errorsText(simdjson::dom::element item) {
  std::string out;
  for (const simdjson::dom::element error : item["errors"].get_array()) {
    if (!out.empty()) out += " | ";
    out += text(error, "code");
    if (const std::string_view path = text(error, "path"); !path.empty()) {
      out += ' ';
      out += path;
    }
    out += ": ";
    out += text(error, "message");
  }
  return out;
}

// One item of the response and whether it was accepted.
struct Item {
  simdjson::dom::element json;
  bool accepted;
};

// The response's items in the request's order: the accepted items' list and
// the failures each keep that order, and `accepted` says which list holds the
// next item. The elements live as long as `parser`.
std::vector<Item> itemsInRequestOrder(simdjson::dom::parser& parser, const simdjson::padded_string& response,
                                      const std::vector<bool>& accepted, std::string_view acceptedField) {
  const simdjson::dom::element document = parser.parse(response);
  const simdjson::dom::array passed = document[acceptedField].get_array();
  const simdjson::dom::array failed = document["failures"].get_array();
  if (passed.size() + failed.size() != accepted.size()) {
    throw std::runtime_error("the response holds " + std::to_string(passed.size() + failed.size()) +
                             " items, the request " + std::to_string(accepted.size()));
  }
  std::vector<Item> items;
  items.reserve(accepted.size());
  auto nextPassed = passed.begin();
  auto nextFailed = failed.begin();
  for (const bool wasAccepted : accepted) {
    if (wasAccepted) {
      if (nextPassed == passed.end()) throw std::runtime_error("the response has fewer accepted items than verdicts");
      items.push_back({*nextPassed, true});
      ++nextPassed;
    } else {
      if (nextFailed == failed.end()) throw std::runtime_error("the response has fewer failures than verdicts");
      items.push_back({*nextFailed, false});
      ++nextFailed;
    }
  }
  return items;
}

// A column name once, in the order first met.
void addColumn(std::vector<std::string>& columns, std::string name) {
  if (std::find(columns.begin(), columns.end(), name) == columns.end()) columns.push_back(std::move(name));
}

// The definition's columns, as generate's CSV names them (D-Q9): the AIs
// ("01", "10", ...) and the extension parameters ("ext:<key>") of every item
// read, each in the order first met in the batch.
struct DefinitionColumns {
  std::vector<std::string> ais;
  std::vector<std::string> extensionParameters;
};

DefinitionColumns definitionColumns(const std::vector<Item>& items) {
  DefinitionColumns columns;
  for (const Item& item : items) {
    const simdjson::dom::element definition = item.json["definition"];
    if (definition.is_null()) continue;
    addColumn(columns.ais, std::string(text(definition["primaryKey"], "key")));
    for (const simdjson::dom::element ai : definition["ais"].get_array()) {
      addColumn(columns.ais, std::string(text(ai, "key")));
    }
    for (const simdjson::dom::element parameter : definition["extensionParameters"].get_array()) {
      addColumn(columns.extensionParameters, "ext:" + std::string(text(parameter, "key")));
    }
  }
  return columns;
}

// The value of `key` in a list of {key, value}; "" when it is not there.
std::string_view valueOf(simdjson::dom::array pairs, std::string_view key) {
  for (const simdjson::dom::element pair : pairs) {
    if (text(pair, "key") == key) return text(pair, "value");
  }
  return {};
}

}  // namespace

std::string codesResponseToCsv(std::string_view response, const std::vector<bool>& accepted) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(response);
  std::string out;
  constexpr std::array<std::string_view, 4> kHeader{"reference", "barcodeText", "hri", "errors"};
  common::appendCsvRecord(out, kHeader);
  for (const Item& item : itemsInRequestOrder(parser, padded, accepted, "codes")) {
    const std::string errors = item.accepted ? std::string() : errorsText(item.json);
    const std::array<std::string_view, 4> fields{text(item.json, "reference"),
                                                 item.accepted ? text(item.json, "barcodeText") : "",
                                                 item.accepted ? text(item.json, "hri") : "", errors};
    common::appendCsvRecord(out, fields);
  }
  return out;
}

std::string parseResponseToCsv(std::string_view response, const std::vector<bool>& accepted) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(response);
  const std::vector<Item> items = itemsInRequestOrder(parser, padded, accepted, "parsed");
  const DefinitionColumns columns = definitionColumns(items);
  std::vector<std::string_view> fields{"reference", "form", "symbologyIdentifier", "primaryKey"};
  fields.insert(fields.end(), columns.ais.begin(), columns.ais.end());
  fields.insert(fields.end(), columns.extensionParameters.begin(), columns.extensionParameters.end());
  for (const std::string_view name :
       {"digitalLinkStem", "linkType", "context", "elementString", "hri", "digitalLink", "errors"}) {
    fields.push_back(name);
  }
  std::string out;
  common::appendCsvRecord(out, fields);
  for (const Item& item : items) {
    fields.clear();
    fields.push_back(text(item.json, "reference"));
    fields.push_back(text(item.json, "form"));
    fields.push_back(text(item.json, "symbologyIdentifier"));
    const simdjson::dom::element definition = item.json["definition"];
    const bool read = !definition.is_null();
    const std::string_view primaryKey = read ? text(definition["primaryKey"], "key") : "";
    fields.push_back(primaryKey);
    for (const std::string& ai : columns.ais) {
      fields.push_back(!read              ? std::string_view()
                       : ai == primaryKey ? text(definition["primaryKey"], "value")
                                          : valueOf(definition["ais"].get_array(), ai));
    }
    for (const std::string& parameter : columns.extensionParameters) {
      const std::string_view key = std::string_view(parameter).substr(4);
      fields.push_back(read ? valueOf(definition["extensionParameters"].get_array(), key) : "");
    }
    for (const std::string_view field : {"digitalLinkStem", "linkType", "context"}) {
      fields.push_back(read ? text(definition, field) : "");
    }
    const std::string errors = item.accepted ? std::string() : errorsText(item.json);
    fields.push_back(item.accepted ? text(item.json, "elementString") : "");
    fields.push_back(item.accepted ? text(item.json, "hri") : "");
    fields.push_back(item.accepted ? text(item.json, "digitalLink") : "");
    fields.push_back(errors);
    common::appendCsvRecord(out, fields);
  }
  return out;
}

}  // namespace codepayload::cli
