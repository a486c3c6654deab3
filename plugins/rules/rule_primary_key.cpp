// primaryKey: the primary key is a known AI, and a Digital Link primary key (or,
// without a stem, one of the configured element-string-only keys such as 03).
#include "engine/item.h"
#include "engine/snapshot.h"
#include "engine/suggestions.h"
#include "engine/validation_codes.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload::rules {

namespace {

class PrimaryKeyRule final : public RuleModule {
 public:
  explicit PrimaryKeyRule(const std::vector<std::string>& elementStringOnly) : elementStringOnly_(elementStringOnly) {}

  void check(ItemContext& item) const override {
    ItemAi& key = item.primaryKey();
    if (key.ai == nullptr) {
      std::string suggestion = suggest::ai(key.key, item.rules());
      item.addError(codes::primaryKey(), "primaryKey", {std::string(key.key), "unknownAi"},
                    messages::Fault{.sentence = messages::Sentence::UnknownAi, .suggestion = suggestion});
      return;
    }
    bool accepted =
        key.ai->definition->digitalLinkPrimaryKey || (!item.hasStem() && elementStringOnly_.contains(key.slot));
    if (!accepted) {
      bool onlyBecauseOfTheStem = elementStringOnly_.contains(key.slot);
      item.addError(
          codes::primaryKey(), "primaryKey", {std::string(key.key), "notPrimaryKey"},
          messages::Fault{.sentence = onlyBecauseOfTheStem ? messages::Sentence::PrimaryKeyOnlyInElementStrings
                                                           : messages::Sentence::NotPrimaryKey});
      return;
    }
    item.primaryKeyAccepted = true;
  }

 private:
  AiSet elementStringOnly_;
};

}  // namespace

// module.primaryKey.elementStringOnly: the keys accepted without a stem only.
RuleModuleStart makePrimaryKeyRule(const ModuleSettings& settings) {
  return {std::make_unique<PrimaryKeyRule>(settingList(settings, "elementStringOnly")), {}};
}

}  // namespace codepayload::rules
