#include "engine/item_processor.h"

#include "engine/generator.h"
#include "engine/item.h"
#include "engine/snapshot.h"
#include "engine/validation_codes.h"

namespace codepayload {

bool validateItem(ItemContext& item, std::string_view& stem) {
  item.rules().pipeline().run(item);
  if (item.hasErrors()) return false;
  if (!item.hasStem()) return true;
  const char* reason = nullptr;
  stem = item.normalisedStem(reason);
  if (reason != nullptr) {
    // The pipeline was configured without digitalLinkStem: never emit a bad URI.
    item.addError(codes::digitalLinkStem(), "digitalLinkStem", {reason},
                  messages::Fault{.sentence = messages::stemSentence(reason)});
    return false;
  }
  // Every AI must have found its place; a pipeline without digitalLinkPlacement
  // must not drop AIs from the URI silently.
  for (std::size_t i = 0; i < item.ais().size(); ++i) {
    if (item.ais()[i].placement == Placement::Undecided) {
      item.addError(codes::aiDigitalLink(i), "ais." + std::to_string(i), {std::string(item.ais()[i].key)},
                    messages::Fault{.sentence = messages::Sentence::NotInDigitalLink});
    }
  }
  return !item.hasErrors();
}

void processItem(const Snapshot& rules, const CodeDefinition& definition, std::size_t position, ItemOutcome& outcome) {
  outcome.barcodeText.clear();
  outcome.hri.clear();
  outcome.errors.clear();
  ItemContext item(rules, definition, position, outcome.errors, outcome.ais);
  std::string_view stem;
  if (!validateItem(item, stem)) return;
  if (item.hasStem()) {
    writeDigitalLink(item, stem, outcome.barcodeText);
  } else {
    writeElementString(item, outcome.barcodeText);
  }
  writeHri(item, item.hasStem(), outcome.hri);
}

}  // namespace codepayload
