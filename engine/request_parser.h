// CodesRequest JSON -> CodeDefinitions, with simdjson's on-demand API (the
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
  // On success `definitions` holds views into this parser's buffers, valid
  // until the next call.
  bool parse(std::string_view body, std::size_t maxItems, std::vector<CodeDefinition>& definitions,
             RequestError& error);

 private:
  simdjson::ondemand::parser parser_;
  simdjson::padded_string padded_;
};

}  // namespace codepayload
