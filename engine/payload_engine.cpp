#include "engine/payload_engine.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "common/memory_release.h"
#include "engine/engine_metrics.h"
#include "engine/item_processor.h"
#include "engine/json_writer.h"
#include "engine/parse_item.h"
#include "engine/request_parser.h"
#include "engine/validation_codes.h"

namespace codepayload {

namespace {

// Per-thread scratch space: the parser and its buffers, the definitions and the
// output buffers are reused from request to request.
struct Scratch {
  RequestParser parser;
  std::vector<CodeDefinition> definitions;
  ItemOutcome outcome;
  std::vector<CodeReading> readings;
  ParseOutcome parsed;
  std::string pending;                     // streamed output not yet handed to the sink
  std::string failures;                    // failure text kept until the codes are written
  std::vector<std::size_t> laterFailures;  // failing items generated again after the codes
  std::string reference;
};

thread_local Scratch scratch;

// After a request larger than this (body bytes, or output buffer capacity) the
// thread gives its scratch memory back instead of keeping it for the next
// request: a worker that once served a 32 MiB batch must not hold that much
// (and simdjson's indexes of about 4 bytes per body byte) for good.
constexpr std::size_t kRetainedScratchBytes = common::kLargeBufferBytes;
// Definitions kept (with their vectors' capacity) between requests.
constexpr std::size_t kRetainedDefinitions = 10000;

// Releases what a large request left in the thread's scratch; runs when
// generate() returns or throws.
struct ScratchRelease {
  std::size_t bodyBytes;
  ~ScratchRelease() {
    if (bodyBytes > kRetainedScratchBytes) scratch.parser.releaseBuffers();
    if (scratch.definitions.size() > kRetainedDefinitions) std::vector<CodeDefinition>().swap(scratch.definitions);
    if (scratch.readings.size() > kRetainedDefinitions) std::vector<CodeReading>().swap(scratch.readings);
    if (scratch.laterFailures.capacity() > kRetainedDefinitions) std::vector<std::size_t>().swap(scratch.laterFailures);
    common::releaseIfOver(scratch.pending, kRetainedScratchBytes);
    common::releaseIfOver(scratch.failures, kRetainedScratchBytes);
    common::releaseIfOver(scratch.outcome.barcodeText, kRetainedScratchBytes);
    common::releaseIfOver(scratch.outcome.hri, kRetainedScratchBytes);
  }
};

// Where generated text goes: with a sink, `text` is handed on in pieces at
// item boundaries; without one, it is the whole response.
class Output {
 public:
  Output(std::string& text, OutputSink* sink, std::size_t pieceBytes)
      : text_(text), sink_(sink), pieceBytes_(std::max<std::size_t>(pieceBytes, 1)) {}

  std::string& text() { return text_; }

  // An item is complete: hand the text on when a piece is full.
  void itemDone() {
    if (sink_ != nullptr && text_.size() >= pieceBytes_) flush();
  }

  // Appends `more`; when streaming and a piece would be full, hands the
  // waiting text on and then `more` in slices of the piece size.
  void appendLarge(std::string_view more) {
    if (sink_ == nullptr || text_.size() + more.size() < pieceBytes_) {
      text_.append(more);
      return;
    }
    flush();
    for (std::size_t offset = 0; offset < more.size(); offset += pieceBytes_) {
      sink_->write(more.substr(offset, pieceBytes_));
    }
  }

  void finish() {
    if (sink_ != nullptr) flush();
  }

 private:
  void flush() {
    if (text_.empty()) return;
    sink_->write(text_);
    text_.clear();
  }

  std::string& text_;
  OutputSink* sink_;
  std::size_t pieceBytes_;
};

std::string_view referenceFor(const std::optional<std::string_view>& reference, std::size_t position) {
  if (reference) return *reference;
  scratch.reference = std::to_string(position);
  return scratch.reference;
}

// What differs between answering /codes and /codes/parse: the items read
// from the body, what is done with each, and how its answer is written.
struct Generation {
  static bool read(std::string_view body, std::size_t maxItems, std::size_t& count, RequestError& error) {
    return scratch.parser.parse(body, maxItems, scratch.definitions, count, error);
  }
  static bool process(const Snapshot& rules, std::size_t i) {
    processItem(rules, scratch.definitions[i], i, scratch.outcome);
    return scratch.outcome.accepted();
  }
  static const std::vector<ValidationError>& errors() { return scratch.outcome.errors; }
  static std::string_view reference(std::size_t i) { return referenceFor(scratch.definitions[i].reference, i); }
  static void appendAccepted(std::string& text, std::size_t i) {
    json::appendGeneratedCode(text, reference(i), scratch.outcome.barcodeText, scratch.outcome.hri);
  }
  static void appendFailure(std::string& text, std::size_t i) {
    json::appendFailure(text, reference(i), scratch.outcome.errors);
  }
  static constexpr std::string_view kAcceptedField = "codes";
  static void count(const GenerateCounts& tally) {
    engineMetrics().codesAccepted.add(tally.codes);
    engineMetrics().codesRejected.add(tally.failures);
  }
};

struct Parsing {
  static bool read(std::string_view body, std::size_t maxItems, std::size_t& count, RequestError& error) {
    return scratch.parser.parse(body, maxItems, scratch.readings, count, error);
  }
  static bool process(const Snapshot& rules, std::size_t i) {
    parseItem(rules, scratch.readings[i].data, i, scratch.parsed);
    return scratch.parsed.accepted();
  }
  static const std::vector<ValidationError>& errors() { return scratch.parsed.errors; }
  static std::string_view reference(std::size_t i) { return referenceFor(scratch.readings[i].reference, i); }
  static void appendAccepted(std::string& text, std::size_t i) {
    json::appendParsedCode(text, reference(i), scratch.parsed);
  }
  static void appendFailure(std::string& text, std::size_t i) {
    json::appendParseFailure(text, reference(i), scratch.parsed);
  }
  static constexpr std::string_view kAcceptedField = "parsed";
  static void count(const GenerateCounts& tally) {
    engineMetrics().codesParsed.add(tally.codes);
    engineMetrics().parseRejected.add(tally.failures);
  }
};

}  // namespace

PayloadEngine::PayloadEngine(SnapshotHolder& rules, EngineLimits limits) : rules_(rules), limits_(limits) {}

bool PayloadEngine::generateJson(std::string_view body, std::string& out, RequestError& error,
                                 GenerateCounts* counts, std::vector<bool>* accepted) const {
  out.clear();
  return answer<Generation>(body, out, nullptr, error, counts, accepted);
}

bool PayloadEngine::generateJson(std::string_view body, OutputSink& sink, RequestError& error,
                                 GenerateCounts* counts) const {
  scratch.pending.clear();
  return answer<Generation>(body, scratch.pending, &sink, error, counts, nullptr);
}

bool PayloadEngine::parseJson(std::string_view body, std::string& out, RequestError& error,
                              GenerateCounts* counts, std::vector<bool>* accepted) const {
  out.clear();
  return answer<Parsing>(body, out, nullptr, error, counts, accepted);
}

bool PayloadEngine::parseJson(std::string_view body, OutputSink& sink, RequestError& error,
                              GenerateCounts* counts) const {
  scratch.pending.clear();
  return answer<Parsing>(body, scratch.pending, &sink, error, counts, nullptr);
}

template <typename Operation>
bool PayloadEngine::answer(std::string_view body, std::string& text, OutputSink* sink, RequestError& error,
                           GenerateCounts* counts, std::vector<bool>* accepted) const {
  ScratchRelease release{body.size()};
  std::size_t count = 0;
  if (!Operation::read(body, limits_.maxItems, count, error)) return false;
  std::shared_ptr<const Snapshot> rules = rules_.current();
  Output output(text, sink, limits_.outputPieceBytes);
  // The string overload holds the whole response anyway: it keeps every
  // failure's text rather than generating any twice.
  const std::size_t failureBudget =
      sink != nullptr ? limits_.bufferedFailureBytes : std::numeric_limits<std::size_t>::max();
  scratch.failures.clear();
  scratch.laterFailures.clear();
  if (sink == nullptr) text.reserve(64 + count * 160);
  text += "{\"";
  text += Operation::kAcceptedField;
  text += "\":[";
  GenerateCounts tally;
  // Errors by code form, added to the process's counters once the request is
  // done: a few atomic adds per request, not one per item.
  std::array<std::uint64_t, codes::kCodeFormCount + 1> errorsByForm{};
  if (accepted != nullptr) accepted->assign(count, false);
  for (std::size_t i = 0; i < count; ++i) {
    if (Operation::process(*rules, i)) {
      if (accepted != nullptr) (*accepted)[i] = true;
      if (tally.codes++ != 0) text += ',';
      Operation::appendAccepted(text, i);
      output.itemDone();
      continue;
    }
    // Counted here, once: a failure generated again below is not counted twice.
    for (const ValidationError& failure : Operation::errors()) ++errorsByForm[codes::codeFormIndex(failure.code)];
    if (scratch.laterFailures.empty() && scratch.failures.size() < failureBudget) {
      if (tally.failures++ != 0) scratch.failures += ',';
      Operation::appendFailure(scratch.failures, i);
    } else {
      ++tally.failures;
      scratch.laterFailures.push_back(i);
    }
  }
  text += "],\"failures\":[";
  output.appendLarge(scratch.failures);
  bool failureWritten = !scratch.failures.empty();
  for (const std::size_t i : scratch.laterFailures) {
    // The rules are pure functions of the snapshot and the item; an item
    // that passes now would make the counts and the response disagree.
    if (Operation::process(*rules, i)) {
      throw std::logic_error("item " + std::to_string(i) + " passed when processed again after failing");
    }
    if (failureWritten) text += ',';
    failureWritten = true;
    Operation::appendFailure(text, i);
    output.itemDone();
  }
  text += "]}";
  output.finish();
  Operation::count(tally);
  EngineMetrics& metrics = engineMetrics();
  for (std::size_t form = 0; form < errorsByForm.size(); ++form) {
    if (errorsByForm[form] != 0) metrics.errorsByForm[form].add(errorsByForm[form]);
  }
  if (counts != nullptr) *counts = tally;
  return true;
}

}  // namespace codepayload
