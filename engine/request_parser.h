// CodesRequest JSON -> CodeDefinitions, and ParseRequest JSON -> CodeReadings, with simdjson's on-demand API (the
// request hot path). Strict: a missing required field, a field of the wrong JSON
// type, an unknown or repeated field, or anything that is not valid UTF-8 JSON
// refuses the whole body with the path of the offending field.
#pragma once

#include <simdjson.h>

#include <string_view>
#include <vector>

#include "engine/model.h"
#include "engine/payload_engine.h"

namespace codepayload {

class RequestParser {
 public:
  // On success the first `count` entries of `definitions` hold views into this
  // parser's buffers, valid until the next call. Entries past `count` are kept
  // (with their vectors' capacity) for the next call: no allocation per item
  // once a worker has seen a batch of that size.
  bool parse(std::string_view body, std::size_t maxItems, std::vector<CodeDefinition>& definitions, std::size_t& count,
             RequestError& error);
  // The same for a ParseRequest: {"codes":[{"reference":..,"data":..},..]}.
  bool parse(std::string_view body, std::size_t maxItems, std::vector<CodeReading>& readings, std::size_t& count,
             RequestError& error);

  // Gives back the body copy and simdjson's buffers (its structural index
  // takes about 4 bytes per body byte); the next parse allocates what it needs.
  void releaseBuffers();

 private:
  template <typename ReadItem>
  bool parseItems(std::string_view body, std::size_t maxItems, std::string_view items, std::size_t& count,
                  RequestError& error, ReadItem readItem);

  simdjson::ondemand::parser parser_;
  simdjson::padded_string padded_;
};

}  // namespace codepayload
