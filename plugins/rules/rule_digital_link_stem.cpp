// digitalLinkStem: an http or https origin with a host; no userinfo, query or
// fragment; one trailing slash stripped; no empty or dot path segments; only
// URI characters. The first fault is reported.
#include "engine/item.h"
#include "engine/validation_codes.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload::rules {

namespace {

class DigitalLinkStemRule final : public RuleModule {
 public:
  void check(ItemContext& item) const override {
    if (!item.hasStem()) return;
    const char* reason = nullptr;
    item.normalisedStem(reason);
    if (reason == nullptr) return;
    item.addError(codes::digitalLinkStem(), "digitalLinkStem", {reason},
                  messages::Fault{.sentence = messages::stemSentence(reason)});
  }
};

}  // namespace

RuleModuleStart makeDigitalLinkStemRule(const ModuleSettings&) { return {std::make_unique<DigitalLinkStemRule>(), {}}; }

}  // namespace codepayload::rules
