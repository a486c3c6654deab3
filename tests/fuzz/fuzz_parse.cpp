// fuzz_parse: arbitrary bytes as the data of one payload read back (POST
// /codes/parse): engine/parse_item.h, that is the reader, the pipeline and the
// writers, over a snapshot of the shipped baseline; and PayloadEngine::parseJson
// on a ParseRequest that holds the same data.
//
// Invariants (abort on violation):
//  - the same data parsed again, into fresh buffers or into the buffers the
//    previous input left behind, gives the same answer;
//  - data that is none of the forms has exactly one error, on "data", coded
//    Validation.Invalid.data or Validation.Invalid.data.compressedDigitalLink;
//    data that is read has none of those;
//  - every error is "Validation.Invalid.*" with a message, and its offset and
//    length lie inside the data;
//  - UTF-8 data gives UTF-8 everywhere: the definition, args, messages and the
//    texts written;
//  - an accepted payload has an element string and an HRI, and a Digital Link
//    exactly when it was read from one; the element string read back is
//    accepted and written again as itself, and so is the Digital Link, with
//    the same HRI;
//  - for UTF-8 data, parseJson answers {"codes":[{"reference":"r","data":..}]}
//    byte for byte with the item json::appendParsedCode or appendParseFailure
//    writes for parseItem's outcome, in "parsed" or in "failures", and the
//    answer is valid JSON.
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/json_escape.h"
#include "common/utf8.h"
#include "engine/json_writer.h"
#include "engine/parse_item.h"
#include "engine/payload_engine.h"
#include "engine/snapshot.h"
#include "tests/fuzz/baseline_snapshot.h"
#include "tests/fuzz/fuzz_check.h"

namespace codepayload::fuzz {
namespace {

struct Harness {
  std::shared_ptr<const Snapshot> snapshot;
  std::unique_ptr<SnapshotHolder> holder;
  std::unique_ptr<PayloadEngine> engine;
  ParseOutcome reused;  // keeps the buffers of the previous input
  simdjson::dom::parser responseParser;
};

Harness* harness = nullptr;

// The item as the ParseResponse writes it.
std::string itemJson(const ParseOutcome& outcome) {
  std::string item;
  if (outcome.accepted()) {
    json::appendParsedCode(item, "r", outcome);
  } else {
    json::appendParseFailure(item, "r", outcome);
  }
  return item;
}

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool isReadingFault(std::string_view code) {
  return code == "Validation.Invalid.data" || code == "Validation.Invalid.data.compressedDigitalLink";
}

void checkErrors(std::string_view data, const ParseOutcome& outcome, std::string_view item) {
  require(outcome.read || outcome.errors.size() == 1, "data that is none of the forms has exactly one error", item);
  for (const ValidationError& error : outcome.errors) {
    require(startsWith(error.code, "Validation.Invalid."), "every code is Validation.Invalid.*", item);
    require(!error.message.empty(), "every error has a message", item);
    require(isReadingFault(error.code) != outcome.read, "reading faults exactly when the data is none of the forms",
            item);
    require(!isReadingFault(error.code) || (error.path && *error.path == "data"), "a reading fault is on data", item);
    if (error.offset) {
      require(*error.offset <= data.size() && error.length <= data.size() - *error.offset,
              "an error lies inside the data", item);
    } else {
      require(error.length == 0, "an error of no one place has no length", item);
    }
  }
}

void checkUtf8(const ParseOutcome& outcome, std::string_view item) {
  const auto utf8 = [&](std::string_view text) { require(common::isValidUtf8(text), "the answer is UTF-8", item); };
  for (const ValidationError& error : outcome.errors) {
    utf8(error.message);
    for (const std::string& argument : error.args) utf8(argument);
  }
  if (outcome.read) {
    const CodeDefinition& definition = outcome.definition;
    utf8(definition.primaryKey.value);
    for (const AiInput& ai : definition.ais) utf8(ai.value);
    for (const ExtensionParameter& parameter : definition.extensionParameters) {
      utf8(parameter.key);
      utf8(parameter.value);
    }
    if (definition.digitalLinkStem) utf8(*definition.digitalLinkStem);
    if (definition.linkType) utf8(*definition.linkType);
    if (definition.context) utf8(*definition.context);
  }
  utf8(outcome.elementString);
  utf8(outcome.digitalLink);
  utf8(outcome.hri);
}

// A text the service wrote, read back: accepted, in `form`, and written again
// as itself. The element string keeps the order read; a Digital Link's query
// has GS1's order (D-Q1), which its HRI follows, so the HRIs of the two
// Digital Links are the same.
void checkReadsBack(std::string_view written, PayloadForm form, const ParseOutcome& original) {
  ParseOutcome again;
  parseItem(*harness->snapshot, written, 0, again);
  const std::string item = itemJson(again);
  require(again.accepted(), "a text the service wrote reads back accepted", item);
  require(again.payload.form == form, "a text the service wrote reads back in its form", item);
  if (form == PayloadForm::DigitalLink) {
    require(again.digitalLink == written, "a Digital Link the service wrote is written again as itself", item);
    require(again.hri == original.hri, "it has the same HRI", item);
  } else {
    require(again.elementString == written, "an element string the service wrote is written again as itself", item);
  }
}

void checkAccepted(const ParseOutcome& outcome, std::string_view item) {
  require(!outcome.elementString.empty() && !outcome.hri.empty(), "an accepted payload has texts", item);
  const bool fromDigitalLink = outcome.payload.form == PayloadForm::DigitalLink;
  require(outcome.digitalLink.empty() != fromDigitalLink, "a Digital Link exactly when one was read", item);
  checkReadsBack(outcome.elementString, PayloadForm::BracketedElementString, outcome);
  if (fromDigitalLink) checkReadsBack(outcome.digitalLink, PayloadForm::DigitalLink, outcome);
}

void checkParseJson(std::string_view data, const ParseOutcome& outcome, const std::string& item) {
  std::string body = R"({"codes":[{"reference":"r","data":)";
  common::appendJsonString(body, data);
  body += "}]}";
  std::string answer;
  RequestError error{};
  require(harness->engine->parseJson(body, answer, error), "a ParseRequest of UTF-8 data is answered", body);
  const std::string expected = outcome.accepted() ? R"({"parsed":[)" + item + R"(],"failures":[]})"
                                                  : R"({"parsed":[],"failures":[)" + item + "]}";
  require(answer == expected, "parseJson answers with parseItem's item", answer);
  simdjson::dom::element parsed;
  require(harness->responseParser.parse(answer).get(parsed) == simdjson::SUCCESS, "the answer is valid JSON", answer);
}

}  // namespace
}  // namespace codepayload::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  using namespace codepayload;
  static fuzz::Harness built;
  built.snapshot = fuzz::baselineSnapshot();
  built.holder = std::make_unique<SnapshotHolder>(built.snapshot);
  built.engine = std::make_unique<PayloadEngine>(*built.holder);
  fuzz::harness = &built;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  using namespace codepayload;
  const std::string_view data(reinterpret_cast<const char*>(bytes), size);
  ParseOutcome fresh;
  parseItem(*fuzz::harness->snapshot, data, 0, fresh);
  const std::string item = fuzz::itemJson(fresh);
  parseItem(*fuzz::harness->snapshot, data, 0, fuzz::harness->reused);
  fuzz::require(fuzz::itemJson(fuzz::harness->reused) == item, "the same data gives the same answer in reused buffers",
                item);

  fuzz::checkErrors(data, fresh, item);
  const bool utf8 = common::isValidUtf8(data);
  if (utf8) fuzz::checkUtf8(fresh, item);
  if (fresh.accepted()) fuzz::checkAccepted(fresh, item);
  if (utf8) fuzz::checkParseJson(data, fresh, item);
  return 0;
}
