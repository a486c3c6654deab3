// digitalLinkPlacement (with a stem only): every AI of ais is either a path
// qualifier of the primary key or a data attribute the dictionary permits in
// the query string ('?' flag); the path qualifiers all come from one qualifier
// sequence, whose order they take in the URI.
#include <algorithm>

#include "engine/item.h"
#include "engine/snapshot.h"
#include "engine/validation_codes.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload::rules {

namespace {

class DigitalLinkPlacementRule final : public RuleModule {
 public:
  void check(ItemContext& item) const override {
    if (!item.hasStem() || !item.primaryKeyAccepted) return;
    const CompiledAi& primaryKey = *item.primaryKey().ai;
    std::vector<ItemAi>& ais = item.ais();
    bool anyQualifier = false;
    for (std::size_t i = 0; i < ais.size(); ++i) {
      ItemAi& ai = ais[i];
      if (!ai.usable) continue;
      if (primaryKey.isQualifier(ai.slot)) {
        ai.placement = Placement::PathQualifier;
        anyQualifier = true;
      } else if (ai.ai->definition->digitalLinkDataAttribute) {
        ai.placement = Placement::QueryAttribute;
      } else {
        item.addError(codes::aiDigitalLink(i), "ais." + std::to_string(i), {std::string(ai.key)},
                      messages::Fault{.sentence = messages::Sentence::NotInDigitalLink});
      }
    }
    if (anyQualifier) rankQualifiers(item, primaryKey);
  }

 private:
  static void rankQualifiers(ItemContext& item, const CompiledAi& primaryKey) {
    std::vector<ItemAi>& ais = item.ais();
    for (std::size_t sequence = 0; sequence < primaryKey.qualifierSequences.size(); ++sequence) {
      bool fits = std::all_of(ais.begin(), ais.end(), [&](const ItemAi& ai) {
        return ai.placement != Placement::PathQualifier || primaryKey.qualifierRank(sequence, ai.slot) >= 0;
      });
      if (!fits) continue;
      for (ItemAi& ai : ais) {
        if (ai.placement != Placement::PathQualifier) continue;
        ai.qualifierRank = static_cast<std::uint16_t>(primaryKey.qualifierRank(sequence, ai.slot));
      }
      return;
    }
    std::vector<std::string> args{std::string(item.primaryKey().key)};
    for (const ItemAi& ai : ais) {
      if (ai.placement == Placement::PathQualifier) args.emplace_back(ai.key);
    }
    std::string allowed;
    const auto& sequences = primaryKey.definition->qualifierSequences;
    for (std::size_t s = 0; s < sequences.size(); ++s) {
      if (s != 0) allowed += s + 1 == sequences.size() ? " or " : ", ";
      allowed += '(';
      for (std::size_t q = 0; q < sequences[s].size(); ++q) {
        if (q != 0) allowed += ", ";
        allowed += sequences[s][q];
      }
      allowed += ')';
    }
    item.addError(codes::qualifiers(), "ais", std::move(args),
                  messages::Fault{.sentence = messages::Sentence::QualifierSequence, .allowed = allowed});
  }
};

}  // namespace

RuleModuleStart makeDigitalLinkPlacementRule(const ModuleSettings&) {
  return {std::make_unique<DigitalLinkPlacementRule>(), {}};
}

}  // namespace codepayload::rules
