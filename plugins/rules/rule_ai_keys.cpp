// aiKeys: every key in ais is a known AI, does not repeat the primary key, and
// appears once. Each of these faults is reported on its own; repeats are left
// out of relations and placement.
#include "engine/item.h"
#include "engine/snapshot.h"
#include "engine/suggestions.h"
#include "engine/validation_codes.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload::rules {

namespace {

class AiKeysRule final : public RuleModule {
 public:
  void check(ItemContext& item) const override {
    std::vector<ItemAi>& ais = item.ais();
    for (std::size_t i = 0; i < ais.size(); ++i) {
      ItemAi& ai = ais[i];
      AiSlot slot{false, i};
      if (ai.ai == nullptr) {
        std::string suggestion = suggest::ai(ai.key, item.rules());
        item.addError(ItemContext::aiErrorCode(slot), ItemContext::pathOf(slot), {std::string(ai.key), "unknownAi"},
                      messages::Fault{.sentence = messages::Sentence::UnknownAi, .suggestion = suggestion});
      } else if (sameKey(ai, item.primaryKey())) {
        item.addError(ItemContext::aiErrorCode(slot), ItemContext::pathOf(slot),
                      {std::string(ai.key), "repeatsPrimaryKey"},
                      messages::Fault{.sentence = messages::Sentence::RepeatsPrimaryKey});
        ai.usable = false;
      }
      // A repeated key is a fault of its own, whatever else is wrong with it.
      for (std::size_t first = 0; first < i; ++first) {
        if (sameKey(ais[first], ai)) {
          item.addError(codes::aiKeys(), ItemContext::pathOf(slot), {std::string(ai.key), std::to_string(first)},
                        messages::Fault{.sentence = messages::Sentence::DuplicateAi});
          ai.usable = false;
          break;
        }
      }
    }
  }
};

}  // namespace

RuleModuleStart makeAiKeysRule(const ModuleSettings&) { return {std::make_unique<AiKeysRule>(), {}}; }

}  // namespace codepayload::rules
