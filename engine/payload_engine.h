// The engine's front door: a CodesRequest body in, a CodesResponse body out.
// No HTTP here: the server and the codepayload CLI both call this.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "engine/snapshot.h"

namespace codepayload {

// Why a body is not a CodesRequest at all (the whole request is refused; the
// HTTP layer answers 400, or 413 for kTooManyItems).
struct RequestError {
  enum class Kind {
    InvalidJson,    // not JSON, or not UTF-8, or trailing garbage
    MissingField,   // a required field is absent
    WrongType,      // a field has the wrong JSON type
    TooManyItems,   // more definitions than Limits::maxItems
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
};

class PayloadEngine {
 public:
  explicit PayloadEngine(SnapshotHolder& rules, EngineLimits limits = {});

  // Parses `body` as a CodesRequest, validates and generates every item with the
  // snapshot current at the call, and writes the CodesResponse JSON to `out`
  // (cleared first). Returns false and fills `error` when the body is refused.
  // `counts`, when given, receives how many items were accepted and rejected.
  bool generateJson(std::string_view body, std::string& out, RequestError& error,
                    GenerateCounts* counts = nullptr) const;

  SnapshotHolder& rules() const { return rules_; }

 private:
  SnapshotHolder& rules_;
  EngineLimits limits_;
};

}  // namespace codepayload
