// The registry of built-in rule modules, sorted by name. The pipeline order
// comes from rules/pipeline.properties, not from this table.
#include <algorithm>

#include "plugins/rules/rule_modules.h"

namespace codepayload {

const std::vector<RuleModuleEntry>& builtinRuleModules() {
  static const std::vector<RuleModuleEntry> kModules = {
      {"aiFormat", "each AI value against its dictionary format and linters", rules::makeAiFormatRule},
      {"aiKeys", "ais: known AIs, no repeat of the primary key, no duplicate keys", rules::makeAiKeysRule},
      {"context", "context: only with a stem, query-literal characters", rules::makeContextRule},
      {"digitalLinkPlacement", "each AI is a path qualifier or a permitted data attribute; one qualifier sequence",
       rules::makeDigitalLinkPlacementRule},
      {"digitalLinkStem", "digitalLinkStem: an http(s) origin with a clean path", rules::makeDigitalLinkStemRule},
      {"extensionParameters", "extension parameters: only with a stem; keys and values", rules::makeExtensionParametersRule},
      {"linkType", "linkType: an offered gs1: link type or an absolute http(s) URI", rules::makeLinkTypeRule},
      {"normalisation", "GTIN to 14 digits, temperatures padded to six digits", rules::makeNormalisationRule},
      {"primaryKey", "primary key: a known AI accepted as primary key here", rules::makePrimaryKeyRule},
      {"relations", "the dictionary's requires and excludes relations", rules::makeRelationsRule},
  };
  return kModules;
}

const RuleModuleEntry* findBuiltinRuleModule(std::string_view name) {
  const auto& modules = builtinRuleModules();
  auto it = std::lower_bound(modules.begin(), modules.end(), name,
                             [](const RuleModuleEntry& entry, std::string_view key) { return entry.name < key; });
  return (it != modules.end() && it->name == name) ? &*it : nullptr;
}

}  // namespace codepayload
