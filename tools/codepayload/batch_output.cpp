#include "tools/codepayload/batch_output.h"

#include <simdjson.h>

#include <array>
#include <span>
#include <stdexcept>

#include "tools/codepayload/csv.h"

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

// Calls write(item, accepted) for every item of the response in the request's
// order: the accepted items' list and the failures each keep that order, and
// `accepted` says which list holds the next item.
template <typename Write>
std::string toCsv(std::string_view response, const std::vector<bool>& accepted, std::string_view acceptedField,
                  std::span<const std::string_view> header, const Write& write) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(response);
  const simdjson::dom::element document = parser.parse(padded);
  const simdjson::dom::array passed = document[acceptedField].get_array();
  const simdjson::dom::array failed = document["failures"].get_array();
  if (passed.size() + failed.size() != accepted.size()) {
    throw std::runtime_error("the response holds " + std::to_string(passed.size() + failed.size()) +
                             " items, the request " + std::to_string(accepted.size()));
  }
  std::string out;
  appendCsvRecord(out, header);
  auto nextPassed = passed.begin();
  auto nextFailed = failed.begin();
  for (const bool wasAccepted : accepted) {
    if (wasAccepted) {
      if (nextPassed == passed.end()) throw std::runtime_error("the response has fewer accepted items than verdicts");
      write(out, *nextPassed, true);
      ++nextPassed;
    } else {
      if (nextFailed == failed.end()) throw std::runtime_error("the response has fewer failures than verdicts");
      write(out, *nextFailed, false);
      ++nextFailed;
    }
  }
  return out;
}

}  // namespace

std::string codesResponseToCsv(std::string_view response, const std::vector<bool>& accepted) {
  constexpr std::array<std::string_view, 4> kHeader{"reference", "barcodeText", "hri", "errors"};
  return toCsv(response, accepted, "codes", kHeader, [](std::string& out, simdjson::dom::element item, bool passed) {
    const std::string errors = passed ? std::string() : errorsText(item);
    const std::array<std::string_view, 4> fields{text(item, "reference"), passed ? text(item, "barcodeText") : "",
                                                 passed ? text(item, "hri") : "", errors};
    appendCsvRecord(out, fields);
  });
}

std::string parseResponseToCsv(std::string_view response, const std::vector<bool>& accepted) {
  constexpr std::array<std::string_view, 7> kHeader{
      "reference", "form", "symbologyIdentifier", "elementString", "hri", "digitalLink", "errors"};
  return toCsv(response, accepted, "parsed", kHeader, [](std::string& out, simdjson::dom::element item, bool passed) {
    const std::string errors = passed ? std::string() : errorsText(item);
    const std::array<std::string_view, 7> fields{text(item, "reference"),
                                                 text(item, "form"),
                                                 text(item, "symbologyIdentifier"),
                                                 passed ? text(item, "elementString") : "",
                                                 passed ? text(item, "hri") : "",
                                                 passed ? text(item, "digitalLink") : "",
                                                 errors};
    appendCsvRecord(out, fields);
  });
}

}  // namespace codepayload::cli
