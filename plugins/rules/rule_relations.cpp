// relations: the dictionary's req= and ex= attributes over the item's AIs
// (primary key and ais). Each unmet req= attribute is one error listing its
// alternatives; each mutually exclusive pair is one error.
#include "engine/item.h"
#include "engine/snapshot.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload::rules {

namespace {

struct Present {
  std::string_view key;
  const AiDefinition* definition;
  AiSlot slot;
};

std::string alternativeText(const std::vector<AiPattern>& alternative) {
  std::string text;
  for (const AiPattern& pattern : alternative) {
    if (!text.empty()) text += '+';
    text += pattern.text;
  }
  return text;
}

bool excludes(const AiDefinition& definition, std::string_view other) {
  for (const AiPattern& pattern : definition.excludes) {
    if (pattern.matches(other)) return true;
  }
  return false;
}

class RelationsRule final : public RuleModule {
 public:
  void check(ItemContext& item) const override {
    std::vector<Present> present;
    present.reserve(item.ais().size() + 1);
    if (item.primaryKey().ai != nullptr) {
      present.push_back({item.primaryKey().key, item.primaryKey().ai->definition, AiSlot{true, 0}});
    }
    for (std::size_t i = 0; i < item.ais().size(); ++i) {
      const ItemAi& ai = item.ais()[i];
      if (ai.usable) present.push_back({ai.key, ai.ai->definition, AiSlot{false, i}});
    }
    for (const Present& ai : present) checkRequirements(item, ai, present);
    for (std::size_t a = 0; a < present.size(); ++a) {
      for (std::size_t b = a + 1; b < present.size(); ++b) checkExclusion(item, present[a], present[b]);
    }
  }

 private:
  static bool isPresent(const AiPattern& pattern, const Present& self, const std::vector<Present>& present) {
    for (const Present& other : present) {
      if (&other != &self && pattern.matches(other.key)) return true;
    }
    return false;
  }

  static void checkRequirements(ItemContext& item, const Present& ai, const std::vector<Present>& present) {
    for (const RequiresRule& rule : ai.definition->requirements) {
      bool satisfied = false;
      for (const auto& alternative : rule.alternatives) {
        bool all = true;
        for (const AiPattern& pattern : alternative) {
          if (!isPresent(pattern, ai, present)) {
            all = false;
            break;
          }
        }
        if (all) {
          satisfied = true;
          break;
        }
      }
      if (satisfied) continue;
      std::vector<std::string> args;
      for (const auto& alternative : rule.alternatives) args.push_back(alternativeText(alternative));
      item.addError("Validation.Invalid.relations." + std::string(ai.key) + ".requires", ItemContext::pathOf(ai.slot),
                    std::move(args));
    }
  }

  static void checkExclusion(ItemContext& item, const Present& first, const Present& second) {
    if (first.key == second.key) return;
    const Present* named = nullptr;
    const Present* other = nullptr;
    if (excludes(*first.definition, second.key)) {
      named = &first;
      other = &second;
    } else if (excludes(*second.definition, first.key)) {
      named = &second;
      other = &first;
    } else {
      return;
    }
    item.addError("Validation.Invalid.relations." + std::string(named->key) + ".excludes." + std::string(other->key),
                  ItemContext::pathOf(named->slot), {std::string(named->key), std::string(other->key)});
  }
};

}  // namespace

std::unique_ptr<RuleModule> makeRelationsRule(const PipelineSettings&) { return std::make_unique<RelationsRule>(); }

}  // namespace codepayload::rules
