#include "engine/payload_engine.h"

#include "engine/item_processor.h"
#include "engine/json_writer.h"
#include "engine/request_parser.h"

namespace codepayload {

namespace {

// Per-thread scratch space: the parser and its buffers, the definitions and the
// failures text are reused from request to request.
struct Scratch {
  RequestParser parser;
  std::vector<CodeDefinition> definitions;
  ItemOutcome outcome;
  std::string failures;
  std::string reference;
};

thread_local Scratch scratch;

}  // namespace

PayloadEngine::PayloadEngine(SnapshotHolder& rules, EngineLimits limits) : rules_(rules), limits_(limits) {}

bool PayloadEngine::generateJson(std::string_view body, std::string& out, RequestError& error,
                                 GenerateCounts* counts) const {
  out.clear();
  std::size_t count = 0;
  if (!scratch.parser.parse(body, limits_.maxItems, scratch.definitions, count, error)) return false;
  std::shared_ptr<const Snapshot> rules = rules_.current();
  scratch.failures.clear();
  out.reserve(64 + count * 160);
  out += "{\"codes\":[";
  GenerateCounts tally;
  for (std::size_t i = 0; i < count; ++i) {
    const CodeDefinition& definition = scratch.definitions[i];
    processItem(*rules, definition, i, scratch.outcome);
    std::string_view reference;
    if (definition.reference) {
      reference = *definition.reference;
    } else {
      scratch.reference = std::to_string(i);
      reference = scratch.reference;
    }
    if (scratch.outcome.accepted()) {
      if (tally.codes++ != 0) out += ',';
      json::appendGeneratedCode(out, reference, scratch.outcome.barcodeText, scratch.outcome.hri);
    } else {
      if (tally.failures++ != 0) scratch.failures += ',';
      json::appendFailure(scratch.failures, reference, scratch.outcome.errors);
    }
  }
  out += "],\"failures\":[";
  out += scratch.failures;
  out += "]}";
  if (counts != nullptr) *counts = tally;
  return true;
}

}  // namespace codepayload
