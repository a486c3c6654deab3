// Validation and generation of one code definition against one snapshot.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/item.h"
#include "engine/model.h"

namespace codepayload {

class Snapshot;

// The outcome of one item. Buffers are reused from item to item.
struct ItemOutcome {
  std::string barcodeText;
  std::string hri;
  std::vector<ValidationError> errors;  // empty: accepted
  std::vector<ItemAi> ais;              // working storage of the item's AIs

  bool accepted() const { return errors.empty(); }
};

class ItemContext;

// Runs the pipeline over `item`: true when it found no fault and, with a
// stem, every AI has its place in the URI (`stem` then holds the normalised
// stem). The faults go to the item's errors.
bool validateItem(ItemContext& item, std::string_view& stem);

void processItem(const Snapshot& rules, const CodeDefinition& definition, std::size_t position, ItemOutcome& outcome);

}  // namespace codepayload
