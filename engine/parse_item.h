// Reading one payload back (POST /codes/parse): the text is read
// (engine/payload_reader.h), its AIs become a CodeDefinition, and the same
// pipeline as /codes validates it; an accepted one is written again as an
// element string, as a Digital Link URI on the stem that was read, and as
// HRI. Every fault carries where it lies in the data.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/item.h"
#include "engine/model.h"
#include "engine/payload_reader.h"

namespace codepayload {

class Snapshot;

// The outcome of one payload. Buffers are reused from payload to payload.
struct ParseOutcome {
  // Whether the data is one of the forms: `payload` and `definition` then hold
  // what was read (the definition's strings are views into `payload`).
  bool read = false;
  ReadPayload payload;
  CodeDefinition definition;
  // Accepted only: the definition as /codes writes it without a stem, with
  // the stem read (empty when the data was no Digital Link), and the HRI of
  // the form read.
  std::string elementString;
  std::string digitalLink;
  std::string hri;
  std::vector<ValidationError> errors;  // empty: accepted
  std::vector<ItemAi> ais;              // working storage of the item's AIs

  bool accepted() const { return errors.empty(); }
};

void parseItem(const Snapshot& rules, std::string_view data, std::size_t position, ParseOutcome& outcome);

}  // namespace codepayload
