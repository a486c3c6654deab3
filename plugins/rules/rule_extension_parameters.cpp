// extensionParameters: only with a stem; keys non-empty, not linkType or
// context, with at least one non-digit, unique; keys and values made of
// query-literal characters only (unreserved ASCII and URI punctuation).
#include <algorithm>

#include "engine/item.h"
#include "engine/uri_text.h"
#include "engine/validation_codes.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload::rules {

namespace {

class ExtensionParametersRule final : public RuleModule {
 public:
  void check(ItemContext& item) const override {
    const auto& parameters = item.definition().extensionParameters;
    if (parameters.empty()) return;
    if (!item.hasStem()) {
      item.addError(codes::extensionParameters(), "extensionParameters", {"requiresDigitalLinkStem"},
                    messages::Fault{.sentence = messages::Sentence::ExtensionParametersRequireStem});
    }
    for (std::size_t i = 0; i < parameters.size(); ++i) {
      const ExtensionParameter& parameter = parameters[i];
      auto fault = [&](const char* reason, messages::Sentence sentence) {
        std::string index = std::to_string(i);
        item.addError(codes::extensionParameter(i), "extensionParameters." + index,
                      {std::string(parameter.key), reason}, messages::Fault{.sentence = sentence});
      };
      std::string_view key = parameter.key;
      if (key.empty()) {
        fault("emptyKey", messages::Sentence::EmptyExtensionParameterKey);
      } else if (key == "linkType" || key == "context") {
        fault("reservedKey", messages::Sentence::ReservedExtensionParameterKey);
      } else if (std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        fault("numericKey", messages::Sentence::NumericExtensionParameterKey);
      } else if (!uri::allQueryLiteral(key)) {
        fault("keyCharacters", messages::Sentence::ExtensionParameterKeyCharacters);
      }
      if (!uri::allQueryLiteral(parameter.value))
        fault("valueCharacters", messages::Sentence::ExtensionParameterValueCharacters);
      for (std::size_t first = 0; first < i; ++first) {
        if (parameters[first].key == key) {
          item.addError(codes::extensionParameters(), "extensionParameters." + std::to_string(i),
                        {std::string(key), "duplicateKey"},
                        messages::Fault{.sentence = messages::Sentence::DuplicateExtensionParameterKey});
          break;
        }
      }
    }
  }
};

}  // namespace

RuleModuleStart makeExtensionParametersRule(const ModuleSettings&) {
  return {std::make_unique<ExtensionParametersRule>(), {}};
}

}  // namespace codepayload::rules
