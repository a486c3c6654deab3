#include "engine/item.h"

#include "engine/snapshot.h"

namespace codepayload {

ItemContext::ItemContext(const Snapshot& rules, const CodeDefinition& definition, std::size_t position,
                         std::vector<ValidationError>& errors)
    : rules_(rules), definition_(definition), position_(position), errors_(errors), firstError_(errors.size()) {
  primaryKey_.key = definition.primaryKey.key;
  primaryKey_.sentValue = definition.primaryKey.value;
  primaryKey_.ai = rules.findAi(definition.primaryKey.key);
  primaryKey_.usable = primaryKey_.ai != nullptr;
  ais_.resize(definition.ais.size());
  for (std::size_t i = 0; i < definition.ais.size(); ++i) {
    ItemAi& ai = ais_[i];
    ai.key = definition.ais[i].key;
    ai.sentValue = definition.ais[i].value;
    ai.ai = rules.findAi(ai.key);
    ai.usable = ai.ai != nullptr;
  }
}

std::string ItemContext::pathOf(AiSlot slot) {
  return slot.primary ? std::string("primaryKey") : "ais." + std::to_string(slot.index);
}

std::string ItemContext::aiErrorCode(AiSlot slot) {
  return slot.primary ? std::string("Validation.Invalid.primaryKey") : "Validation.Invalid.ais." + std::to_string(slot.index);
}

void ItemContext::addError(std::string code, std::optional<std::string> path, std::vector<std::string> args) {
  errors_.push_back(ValidationError{std::move(code), std::move(path), std::move(args)});
}

}  // namespace codepayload
