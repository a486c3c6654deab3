// relations: the dictionary's req= and ex= attributes over the item's AIs
// (primary key and ais). Each unmet req= attribute is one error listing its
// alternatives; each mutually exclusive pair is one error.
#include "engine/item.h"
#include "engine/snapshot.h"
#include "engine/validation_codes.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload::rules {

namespace {

struct Present {
  std::string_view key;
  const CompiledAi* ai;
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

bool excludes(const CompiledAi& ai, const Present& other) {
  for (const CompiledPattern& pattern : ai.excludes) {
    if (pattern.matches(other.ai->slot, other.key)) return true;
  }
  return false;
}

class RelationsRule final : public RuleModule {
 public:
  void check(ItemContext& item) const override {
    thread_local std::vector<Present> present;  // reused: no allocation per item
    present.clear();
    if (item.primaryKey().ai != nullptr) {
      present.push_back({item.primaryKey().key, item.primaryKey().ai, AiSlot{true, 0}});
    }
    for (std::size_t i = 0; i < item.ais().size(); ++i) {
      const ItemAi& ai = item.ais()[i];
      if (ai.usable) present.push_back({ai.key, ai.ai, AiSlot{false, i}});
    }
    // How many times each AI is present (duplicates are not usable, so 0 or 1,
    // except a repeat of the primary key): set for this item, cleared after.
    thread_local std::vector<std::uint8_t> presentSlots(kAiSlots, 0);
    for (const Present& ai : present) ++presentSlots[static_cast<std::size_t>(ai.ai->slot)];
    for (const Present& ai : present) checkRequirements(item, ai, present, presentSlots);
    for (const Present& ai : present) presentSlots[static_cast<std::size_t>(ai.ai->slot)] = 0;
    for (std::size_t a = 0; a < present.size(); ++a) {
      for (std::size_t b = a + 1; b < present.size(); ++b) checkExclusion(item, present[a], present[b]);
    }
  }

 private:
  // Exact AIs are looked up in the item's slot table; patterns with 'n' scan.
  static bool isPresent(const CompiledPattern& pattern, const Present& self, const std::vector<Present>& present,
                        const std::vector<std::uint8_t>& presentSlots) {
    if (pattern.slot >= 0) {
      return presentSlots[static_cast<std::size_t>(pattern.slot)] > (pattern.slot == self.ai->slot ? 1 : 0);
    }
    for (const Present& other : present) {
      if (&other != &self && pattern.matches(other.ai->slot, other.key)) return true;
    }
    return false;
  }

  static void checkRequirements(ItemContext& item, const Present& ai, const std::vector<Present>& present,
                                const std::vector<std::uint8_t>& presentSlots) {
    const auto& rules = ai.ai->definition->requirements;
    for (std::size_t r = 0; r < rules.size(); ++r) {
      bool satisfied = false;
      for (const auto& alternative : ai.ai->requirements[r]) {
        bool all = true;
        for (const CompiledPattern& pattern : alternative) {
          if (!isPresent(pattern, ai, present, presentSlots)) {
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
      for (const auto& alternative : rules[r].alternatives) args.push_back(alternativeText(alternative));
      item.addError(codes::relationRequires(ai.key), ItemContext::pathOf(ai.slot), std::move(args),
                    messages::Fault{.sentence = messages::Sentence::RelationRequires, .ai = ai.key});
    }
  }

  static void checkExclusion(ItemContext& item, const Present& first, const Present& second) {
    if (first.ai->slot == second.ai->slot) return;  // the primary key repeated
    if (first.ai->excludes.empty() && second.ai->excludes.empty()) return;
    const Present* named = nullptr;
    const Present* other = nullptr;
    if (excludes(*first.ai, second)) {
      named = &first;
      other = &second;
    } else if (excludes(*second.ai, first)) {
      named = &second;
      other = &first;
    } else {
      return;
    }
    item.addError(codes::relationExcludes(named->key, other->key), ItemContext::pathOf(named->slot),
                  {std::string(named->key), std::string(other->key)},
                  messages::Fault{.sentence = messages::Sentence::RelationExcludes});
  }
};

}  // namespace

RuleModuleStart makeRelationsRule(const ModuleSettings&) { return {std::make_unique<RelationsRule>(), {}}; }

}  // namespace codepayload::rules
