// context (only with a stem): the same characters as extension parameter values.
#include "engine/item.h"
#include "engine/uri_text.h"
#include "engine/validation_codes.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload::rules {

namespace {

class ContextRule final : public RuleModule {
 public:
  void check(ItemContext& item) const override {
    const auto& context = item.definition().context;
    if (!context) return;
    if (!item.hasStem()) {
      item.addError(codes::context(), "context", {"requiresDigitalLinkStem"},
                    messages::Fault{.sentence = messages::Sentence::ContextRequiresStem});
    } else if (!uri::allQueryLiteral(*context)) {
      item.addError(codes::context(), "context", {"characters"},
                    messages::Fault{.sentence = messages::Sentence::ContextCharacters});
    }
  }
};

}  // namespace

RuleModuleStart makeContextRule(const ModuleSettings&) { return {std::make_unique<ContextRule>(), {}}; }

}  // namespace codepayload::rules
