// normalisation: GTINs of 8, 12 or 13 digits become 14 digits (leading zeros);
// temperature magnitudes are left-padded to six digits, a trailing minus kept.
// Anything that does not have the expected shape is left to aiFormat, except a
// GTIN of digits with a length GS1 does not define, which is reported here.
#include <algorithm>

#include "engine/item.h"
#include "engine/snapshot.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload::rules {

namespace {

bool allDigits(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

class NormalisationRule final : public RuleModule {
 public:
  NormalisationRule(const std::vector<std::string>& gtinAis, const std::vector<std::string>& temperatureAis)
      : gtinAis_(gtinAis), temperatureAis_(temperatureAis) {}

  void check(ItemContext& item) const override {
    // An element string read back is judged as printed: a short GTIN or
    // temperature there is a fault of the symbol, not shorthand to expand.
    if (item.valuesAsPrinted) return;
    normalise(item, AiSlot{true, 0});
    for (std::size_t i = 0; i < item.ais().size(); ++i) normalise(item, AiSlot{false, i});
  }

 private:
  void normalise(ItemContext& item, AiSlot slot) const {
    ItemAi& ai = item.at(slot);
    if (ai.ai == nullptr) return;
    if (gtinAis_.contains(ai.slot)) {
      normaliseGtin(item, slot, ai);
    } else if (temperatureAis_.contains(ai.slot)) {
      normaliseTemperature(ai);
    }
  }

  static void normaliseGtin(ItemContext& item, AiSlot slot, ItemAi& ai) {
    std::string_view value = ai.sentValue;
    if (value.empty() || !allDigits(value)) return;  // aiFormat reports the characters
    std::size_t length = value.size();
    if (length != 8 && length != 12 && length != 13 && length != 14) {
      item.addError(ItemContext::aiErrorCode(slot), ItemContext::pathOf(slot),
                    {std::string(ai.key), "gtinLength", std::to_string(length)},
                    messages::Fault{.sentence = messages::Sentence::GtinLength});
      ai.valueRejected = true;
      return;
    }
    if (length == 14) return;
    ai.normalisedValue.assign(14 - length, '0');
    ai.normalisedValue.append(value);
    ai.normalised = true;
  }

  static void normaliseTemperature(ItemAi& ai) {
    std::string_view value = ai.sentValue;
    bool negative = !value.empty() && value.back() == '-';
    std::string_view magnitude = negative ? value.substr(0, value.size() - 1) : value;
    if (magnitude.empty() || magnitude.size() >= 6 || !allDigits(magnitude)) return;
    ai.normalisedValue.assign(6 - magnitude.size(), '0');
    ai.normalisedValue.append(magnitude);
    if (negative) ai.normalisedValue += '-';
    ai.normalised = true;
  }

  AiSet gtinAis_;
  AiSet temperatureAis_;
};

}  // namespace

// module.normalisation.gtinAis and .temperatureAis: the AIs each normalisation
// applies to. With neither, the module has nothing to do and says so.
RuleModuleStart makeNormalisationRule(const ModuleSettings& settings) {
  std::vector<std::string> gtinAis = settingList(settings, "gtinAis");
  std::vector<std::string> temperatureAis = settingList(settings, "temperatureAis");
  if (gtinAis.empty() && temperatureAis.empty()) {
    return {nullptr, "no AIs configured (module.normalisation.gtinAis, module.normalisation.temperatureAis)"};
  }
  return {std::make_unique<NormalisationRule>(gtinAis, temperatureAis), {}};
}

}  // namespace codepayload::rules
