// linkType (only with a stem): a "gs1:" value must be a link type the generator
// offers (the GS1 Web Vocabulary minus the resolver-only types; the
// specification's gs1:defaultPage names are aliases of the vocabulary's
// gs1:defaultLink ones); any other value must be an absolute http(s) URI.
#include "common/ascii.h"
#include "engine/item.h"
#include "engine/snapshot.h"
#include "engine/suggestions.h"
#include "engine/uri_text.h"
#include "engine/validation_codes.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload::rules {

namespace {

// A fault: its published reason token and its sentence.
struct Verdict {
  const char* reason;
  messages::Sentence sentence;
};

constexpr Verdict kRequiresDigitalLinkStem{"requiresDigitalLinkStem", messages::Sentence::LinkTypeRequiresStem};
constexpr Verdict kNotAbsoluteHttpUri{"notAbsoluteHttpUri", messages::Sentence::LinkTypeNotAbsoluteHttpUri};
constexpr Verdict kNotSelectable{"notSelectable", messages::Sentence::LinkTypeNotSelectable};
constexpr Verdict kUnknownLinkType{"unknownLinkType", messages::Sentence::LinkTypeUnknown};

class LinkTypeRule final : public RuleModule {
 public:
  explicit LinkTypeRule(std::vector<std::pair<std::string, std::string>> aliases) : aliases_(std::move(aliases)) {}

  void check(ItemContext& item) const override {
    const auto& linkType = item.definition().linkType;
    if (!linkType) return;
    const Verdict* fault = verdict(item, *linkType);
    if (fault == nullptr) return;
    std::string suggestion;
    if (fault == &kUnknownLinkType || fault == &kNotAbsoluteHttpUri) {
      suggestion = suggest::linkType(*linkType, item.rules().selectableLinkTypes());
    }
    item.addError(codes::linkType(), "linkType", {std::string(*linkType), fault->reason},
                  messages::Fault{.sentence = fault->sentence, .suggestion = suggestion});
  }

 private:
  const Verdict* verdict(const ItemContext& item, std::string_view value) const {
    if (!item.hasStem()) return &kRequiresDigitalLinkStem;
    if (value.rfind("gs1:", 0) != 0) return uri::isAbsoluteHttpUri(value) ? nullptr : &kNotAbsoluteHttpUri;
    if (item.rules().isSelectableLinkType(value)) return nullptr;
    std::string_view vocabularyName = value;
    for (const auto& [alias, target] : aliases_) {
      if (alias == value) vocabularyName = target;
    }
    // Known to the vocabulary (directly or by an alias) but not offered, e.g. gs1:handledBy.
    return item.rules().findLinkType(vocabularyName) != nullptr ? &kNotSelectable : &kUnknownLinkType;
  }

  std::vector<std::pair<std::string, std::string>> aliases_;
};

}  // namespace

// module.linkType.aliases: name=target pairs, separated by commas.
RuleModuleStart makeLinkTypeRule(const ModuleSettings& settings) {
  std::vector<std::pair<std::string, std::string>> aliases;
  for (const std::string& alias : settingList(settings, "aliases")) {
    std::size_t equals = alias.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == alias.size()) {
      throw SnapshotError("module.linkType.aliases: \"" + alias + "\" is not name=target");
    }
    aliases.emplace_back(common::trimSpaceAndTab(std::string_view(alias).substr(0, equals)),
                         common::trimSpaceAndTab(std::string_view(alias).substr(equals + 1)));
  }
  return {std::make_unique<LinkTypeRule>(std::move(aliases)), {}};
}

}  // namespace codepayload::rules
