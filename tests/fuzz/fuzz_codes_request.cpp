// fuzz_codes_request: arbitrary bytes as a POST /codes body through
// PayloadEngine::generateJson over a snapshot of the shipped baseline.
//
// Invariants (abort on violation):
//  - a refused body carries a RequestError with a message; a body that is not
//    valid JSON (simdjson DOM) is always refused;
//  - an accepted body is a JSON object whose "codes" array has as many items
//    as the response has codes and failures together, and every item's
//    reference (or its position) comes back exactly once;
//  - the response is valid JSON with exactly the members codes and failures;
//    every GeneratedCode has exactly reference, barcodeText and hri (strings);
//    every failure has reference and a non-empty errors array of
//    {code: "Validation.Invalid.*", path: string or null, args: [strings]};
//  - the same body run again gives byte-identical output;
//  - every barcodeText is printable ASCII without spaces and reads back
//    (engine/payload_reader.h) to AIs of the snapshot whose "(AI)value"
//    concatenation is exactly the hri.
#include <simdjson.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/payload_engine.h"
#include "engine/payload_reader.h"
#include "engine/snapshot.h"
#include "tests/fuzz/baseline_snapshot.h"
#include "tests/fuzz/fuzz_check.h"

namespace codepayload::fuzz {
namespace {

struct Harness {
  std::shared_ptr<const Snapshot> snapshot;
  std::unique_ptr<SnapshotHolder> holder;
  std::unique_ptr<PayloadEngine> engine;
  simdjson::dom::parser requestParser;
  simdjson::dom::parser responseParser;
};

Harness* harness = nullptr;

bool isRequestErrorKind(RequestError::Kind kind) {
  switch (kind) {
    case RequestError::Kind::InvalidJson:
    case RequestError::Kind::MissingField:
    case RequestError::Kind::WrongType:
    case RequestError::Kind::TooManyItems: return true;
  }
  return false;
}

// Printable ASCII without space: what a Digital Link URI (percent-encoded) or
// an element string (CSET 82/39/64 values, digits, parentheses) consists of.
bool isPrintableAsciiWithoutSpace(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c > ' ' && c < '\x7f'; });
}

std::string_view stringMember(simdjson::dom::object object, std::string_view key, std::string_view output) {
  std::string_view value;
  require(object.at_key(key).get_string().get(value) == simdjson::SUCCESS, "a member is a string", output);
  return value;
}

// True when `object` has exactly the members `keys`, each once.
bool hasExactlyMembers(simdjson::dom::object object, std::initializer_list<std::string_view> keys) {
  if (object.size() != keys.size()) return false;
  std::vector<std::string_view> seen;
  for (simdjson::dom::key_value_pair member : object) {
    if (std::find(keys.begin(), keys.end(), member.key) == keys.end()) return false;
    if (std::find(seen.begin(), seen.end(), member.key) != seen.end()) return false;
    seen.push_back(member.key);
  }
  return true;
}

// The references the response must echo: each item's "reference" string, or
// its zero-based position when the reference is absent or null.
std::vector<std::string> expectedReferences(simdjson::dom::array items, std::string_view body) {
  std::vector<std::string> references;
  std::size_t position = 0;
  for (simdjson::dom::element item : items) {
    simdjson::dom::object definition;
    require(item.get_object().get(definition) == simdjson::SUCCESS, "an accepted item is an object", body);
    simdjson::dom::element reference;
    std::string_view text;
    if (definition.at_key("reference").get(reference) != simdjson::SUCCESS || reference.is_null()) {
      references.push_back(std::to_string(position));
    } else {
      require(reference.get_string().get(text) == simdjson::SUCCESS, "an accepted reference is a string", body);
      references.emplace_back(text);
    }
    ++position;
  }
  return references;
}

void checkRoundTrip(const Snapshot& snapshot, std::string_view barcodeText, std::string_view hri,
                    std::string_view output) {
  require(isPrintableAsciiWithoutSpace(barcodeText), "barcodeText is printable ASCII without spaces", output);
  ReadFault fault;
  const std::optional<ReadPayload> read = readPayload(snapshot, barcodeText, fault);
  require(read.has_value(), "barcodeText reads back", barcodeText);
  require(read->form == (barcodeText.starts_with('(') ? PayloadForm::BracketedElementString : PayloadForm::DigitalLink),
          "barcodeText is an element string or a Digital Link URI", barcodeText);
  const std::vector<ReadField>& ais = read->ais;
  require(!ais.empty(), "barcodeText holds at least one AI", barcodeText);
  std::string rebuilt;
  for (const ReadField& ai : ais) {
    require(snapshot.findAi(ai.key) != nullptr, "every AI in barcodeText is in the dictionary", barcodeText);
    rebuilt += '(';
    rebuilt += ai.key;
    rebuilt += ')';
    rebuilt += ai.value;
  }
  require(rebuilt == hri, "the AIs of barcodeText are exactly the hri",
          std::string(barcodeText) + " vs " + std::string(hri));
}

void checkFailure(simdjson::dom::element entry, std::string_view output) {
  simdjson::dom::object failure;
  require(entry.get_object().get(failure) == simdjson::SUCCESS, "a failure is an object", output);
  require(hasExactlyMembers(failure, {"reference", "errors"}), "a failure has exactly reference and errors", output);
  stringMember(failure, "reference", output);
  simdjson::dom::array errors;
  require(failure.at_key("errors").get_array().get(errors) == simdjson::SUCCESS, "errors is an array", output);
  require(errors.size() > 0, "a failure has at least one error", output);
  for (simdjson::dom::element item : errors) {
    simdjson::dom::object error;
    require(item.get_object().get(error) == simdjson::SUCCESS, "an error is an object", output);
    require(hasExactlyMembers(error, {"code", "path", "args", "message"}),
            "an error has exactly code, path, args and message", output);
    require(!stringMember(error, "message", output).empty(), "an error message is not empty", output);
    require(stringMember(error, "code", output).starts_with("Validation.Invalid."),
            "an error code starts with Validation.Invalid.", output);
    simdjson::dom::element path = error.at_key("path").value_unsafe();
    require(path.is_null() || path.is_string(), "an error path is a string or null", output);
    simdjson::dom::array args;
    require(error.at_key("args").get_array().get(args) == simdjson::SUCCESS, "args is an array", output);
    for (simdjson::dom::element arg : args) require(arg.is_string(), "every arg is a string", output);
  }
}

void checkResponse(std::string_view body, const std::string& output) {
  simdjson::dom::element request;
  require(harness->requestParser.parse(body.data(), body.size()).get(request) == simdjson::SUCCESS,
          "an accepted body is valid JSON", body);
  simdjson::dom::array items;
  require(request.at_key("codes").get_array().get(items) == simdjson::SUCCESS, "an accepted body has a codes array",
          body);
  std::vector<std::string> expected = expectedReferences(items, body);

  simdjson::dom::element response;
  require(harness->responseParser.parse(output).get(response) == simdjson::SUCCESS, "the response is valid JSON",
          output);
  simdjson::dom::object top;
  require(response.get_object().get(top) == simdjson::SUCCESS, "the response is an object", output);
  require(hasExactlyMembers(top, {"codes", "failures"}), "the response has exactly codes and failures", output);
  simdjson::dom::array codes;
  simdjson::dom::array failures;
  require(top.at_key("codes").get_array().get(codes) == simdjson::SUCCESS, "codes is an array", output);
  require(top.at_key("failures").get_array().get(failures) == simdjson::SUCCESS, "failures is an array", output);
  require(codes.size() + failures.size() == expected.size(), "one code or failure per item", output);

  std::vector<std::string> echoed;
  const Snapshot& snapshot = *harness->snapshot;
  for (simdjson::dom::element entry : codes) {
    simdjson::dom::object code;
    require(entry.get_object().get(code) == simdjson::SUCCESS, "a code is an object", output);
    require(hasExactlyMembers(code, {"reference", "barcodeText", "hri"}),
            "a code has exactly reference, barcodeText and hri", output);
    echoed.emplace_back(stringMember(code, "reference", output));
    checkRoundTrip(snapshot, stringMember(code, "barcodeText", output), stringMember(code, "hri", output), output);
  }
  for (simdjson::dom::element entry : failures) {
    checkFailure(entry, output);
    echoed.emplace_back(stringMember(entry.get_object().value_unsafe(), "reference", output));
  }
  std::sort(expected.begin(), expected.end());
  std::sort(echoed.begin(), echoed.end());
  require(echoed == expected, "every item's reference comes back exactly once", output);
}

}  // namespace
}  // namespace codepayload::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  using namespace codepayload;
  auto* harness = new fuzz::Harness();
  harness->snapshot = fuzz::baselineSnapshot();
  harness->holder = std::make_unique<SnapshotHolder>(harness->snapshot);
  harness->engine = std::make_unique<PayloadEngine>(*harness->holder);
  fuzz::harness = harness;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace codepayload;
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  std::string output;
  RequestError error{};
  if (!fuzz::harness->engine->generateJson(body, output, error)) {
    fuzz::require(fuzz::isRequestErrorKind(error.kind), "a refusal has a known kind", error.message);
    fuzz::require(!error.message.empty(), "a refusal has a message", body);
    return 0;
  }
  fuzz::checkResponse(body, output);
  std::string again;
  fuzz::require(fuzz::harness->engine->generateJson(body, again, error) && again == output,
                "the same body gives the same response", output);
  return 0;
}
