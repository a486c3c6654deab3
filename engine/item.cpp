#include "engine/item.h"

#include <algorithm>

#include "engine/digital_link_stem.h"
#include "engine/snapshot.h"
#include "engine/validation_codes.h"

namespace codepayload {

ItemContext::ItemContext(const Snapshot& rules, const CodeDefinition& definition, std::size_t position,
                         std::vector<ValidationError>& errors, std::vector<ItemAi>& aiStorage)
    : rules_(rules),
      definition_(definition),
      position_(position),
      errors_(errors),
      firstError_(errors.size()),
      ais_(aiStorage) {
  primaryKey_.key = definition.primaryKey.key;
  primaryKey_.sentValue = definition.primaryKey.value;
  primaryKey_.slot = aiSlot(primaryKey_.key);
  primaryKey_.ai = rules.findAi(primaryKey_.slot);
  primaryKey_.usable = primaryKey_.ai != nullptr;
  ais_.resize(definition.ais.size());
  for (std::size_t i = 0; i < definition.ais.size(); ++i) {
    ItemAi& ai = ais_[i];
    ai.key = definition.ais[i].key;
    ai.sentValue = definition.ais[i].value;
    ai.slot = aiSlot(ai.key);
    ai.ai = rules.findAi(ai.slot);
    ai.normalisedValue.clear();
    ai.normalised = false;
    ai.usable = ai.ai != nullptr;
    ai.valueRejected = false;
    ai.placement = Placement::Undecided;
    ai.qualifierRank = 0;
  }
}

SentSpan ItemAi::spanAsSent(std::size_t offset, std::size_t length) const {
  std::size_t padding = normalised ? normalisedValue.size() - sentValue.size() : 0;
  std::size_t end = offset + length;
  if (offset < padding && end <= padding) return SentSpan{0, 0, true};
  std::size_t begin = std::max(offset, padding) - padding;
  return SentSpan{begin, std::max(end, padding) - padding - begin, false};
}

std::string_view ItemContext::normalisedStem(const char*& reason) {
  if (!stemChecked_) {
    // The items of a batch usually share one stem: remember the last verdict
    // per thread. The normalised stem is always a prefix of the input.
    struct LastStem {
      std::string text;
      const char* reason = nullptr;
      std::size_t normalisedLength = 0;
      bool valid = false;
    };
    thread_local LastStem last;
    std::string_view input = definition_.digitalLinkStem.value_or(std::string_view());
    if (!last.valid || last.text != input) {
      last.text.assign(input);
      last.normalisedLength = checkDigitalLinkStem(input, last.reason).size();
      last.valid = true;
    }
    stemReason_ = last.reason;
    stem_ = last.reason == nullptr ? input.substr(0, last.normalisedLength) : std::string_view();
    stemChecked_ = true;
  }
  reason = stemReason_;
  return stem_;
}

std::string ItemContext::pathOf(AiSlot slot) {
  return slot.primary ? std::string("primaryKey") : "ais." + std::to_string(slot.index);
}

std::string ItemContext::aiErrorCode(AiSlot slot) { return slot.primary ? codes::primaryKey() : codes::ai(slot.index); }

void ItemContext::addError(std::string code, std::optional<std::string> path, std::vector<std::string> args,
                           const messages::Fault& fault) {
  std::string message = messages::describe(fault, args);
  errors_.push_back(ValidationError{std::move(code), std::move(path), std::move(args), std::move(message)});
}

void ItemContext::addError(std::string code, std::optional<std::string> path, std::vector<std::string> args,
                           std::string message) {
  if (message.empty()) message = messages::describeUnknown(code, args);
  errors_.push_back(ValidationError{std::move(code), std::move(path), std::move(args), std::move(message)});
}

}  // namespace codepayload
