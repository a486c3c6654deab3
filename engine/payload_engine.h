// The engine's front door: a CodesRequest body in, a CodesResponse body out.
// No HTTP here: the server and the codepayload CLI both call this.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/output_sink.h"
#include "engine/snapshot.h"

namespace codepayload {

// Why a body is not a CodesRequest at all (the whole request is refused; the
// HTTP layer answers 400, or 413 for TooManyItems).
struct RequestError {
  enum class Kind {
    InvalidJson,   // not JSON, or not UTF-8, or trailing garbage
    MissingField,  // a required field is absent
    WrongType,     // a field has the wrong JSON type
    TooManyItems,  // more definitions than EngineLimits::maxItems
  };
  Kind kind;
  std::string path;     // "codes.3.primaryKey.value"; "" for the whole body
  std::string message;  // one sentence for people
};

// How the items of a generated response split (for logs and metrics).
struct GenerateCounts {
  std::size_t codes = 0;
  std::size_t failures = 0;
};

struct EngineLimits {
  std::size_t maxItems = 100000;
  // Streaming (generateJson with a sink): output is handed on at item
  // boundaries once at least this many bytes are waiting.
  std::size_t outputPieceBytes = 64 * 1024;
  // Streaming: failures follow all codes in the response, so they cannot be
  // sent as they are found. Up to this much failure text is kept while the
  // codes are written; the failures after that are generated a second time
  // (same snapshot, same definitions: the same text) once the codes are out.
  std::size_t bufferedFailureBytes = 1024 * 1024;
};

class PayloadEngine {
 public:
  explicit PayloadEngine(SnapshotHolder& rules, EngineLimits limits = {});

  // Parses `body` as a CodesRequest, validates and generates every item with the
  // snapshot current at the call, and writes the CodesResponse JSON to `out`
  // (cleared first). Returns false and fills `error` when the body is refused.
  // `counts`, when given, receives how many items were accepted and rejected.
  // `accepted`, when given, receives one entry per item of the request, in
  // its order: whether the item is in `codes` (true) or in `failures`. With
  // it a caller can write the answer in the request's order (the CLI's CSV)
  // even where references repeat.
  bool generateJson(std::string_view body, std::string& out, RequestError& error,
                    GenerateCounts* counts = nullptr, std::vector<bool>* accepted = nullptr) const;

  // The same, streamed: every request-level check (the RequestError kinds)
  // is done before the first write, so a caller that has not seen a write when
  // this returns false can still answer with an error status. On success the
  // response goes to `sink` in pieces (about limits.outputPieceBytes each)
  // whose concatenation is byte for byte what the string overload writes;
  // at most about outputPieceBytes + bufferedFailureBytes of output (plus one
  // item's text) is held at a time.
  bool generateJson(std::string_view body, OutputSink& sink, RequestError& error,
                    GenerateCounts* counts = nullptr) const;

  // A ParseRequest body in ({"codes":[{"reference":..,"data":..}]}), a
  // ParseResponse out ({"parsed":[..],"failures":[..]}): every payload read
  // back, validated and written again (engine/parse_item.h). The same
  // request-level checks, limits and streaming as generateJson; `counts`
  // receives the parsed and failed items, `accepted` which items are in
  // `parsed`.
  bool parseJson(std::string_view body, std::string& out, RequestError& error, GenerateCounts* counts = nullptr,
                 std::vector<bool>* accepted = nullptr) const;
  bool parseJson(std::string_view body, OutputSink& sink, RequestError& error, GenerateCounts* counts = nullptr) const;

  SnapshotHolder& rules() const { return rules_; }

 private:
  // `text` receives the output; with a sink it is handed on (and cleared) in
  // pieces, without one it is the whole response. `Operation` is generation
  // or parsing (payload_engine.cpp).
  template <typename Operation>
  bool answer(std::string_view body, std::string& text, OutputSink* sink, RequestError& error,
              GenerateCounts* counts, std::vector<bool>* accepted) const;

  SnapshotHolder& rules_;
  EngineLimits limits_;
};

}  // namespace codepayload
