// The registry of built-in rule modules, sorted by name (checked at build
// time). The pipeline order comes from rules/pipeline.properties, not from
// this table.
#include <algorithm>
#include <iterator>

#include "plugins/rules/rule_modules.h"

namespace codepayload {

namespace {

constexpr RuleModuleEntry kModules[] = {
    {"aiFormat", "each AI value against its dictionary format and linters", rules::makeAiFormatRule},
    {"aiKeys", "ais: known AIs, no repeat of the primary key, no duplicate keys", rules::makeAiKeysRule},
    {"context", "context: only with a stem, query-literal characters", rules::makeContextRule},
    {"digitalLinkPlacement", "each AI is a path qualifier or a permitted data attribute; one qualifier sequence",
     rules::makeDigitalLinkPlacementRule},
    {"digitalLinkStem", "digitalLinkStem: an http(s) origin with a clean path", rules::makeDigitalLinkStemRule},
    {"extensionParameters", "extension parameters: only with a stem; keys and values",
     rules::makeExtensionParametersRule},
    {"linkType", "linkType: an offered gs1: link type or an absolute http(s) URI", rules::makeLinkTypeRule},
    {"normalisation", "GTIN to 14 digits, temperatures padded to six digits", rules::makeNormalisationRule},
    {"primaryKey", "primary key: a known AI accepted as primary key here", rules::makePrimaryKeyRule},
    {"relations", "the dictionary's requires and excludes relations", rules::makeRelationsRule},
};

constexpr bool namesStrictlyAscending() {
  return std::adjacent_find(std::begin(kModules), std::end(kModules),
                            [](const RuleModuleEntry& a, const RuleModuleEntry& b) { return !(a.name < b.name); }) ==
         std::end(kModules);
}
static_assert(namesStrictlyAscending(), "kModules must be sorted by name without duplicates");

}  // namespace

namespace rules {

RuleModuleTable builtinRuleModules() { return {std::begin(kModules), std::end(kModules)}; }

}  // namespace rules

}  // namespace codepayload
