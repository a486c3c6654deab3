// The built-in rule modules: one job each, one file each, one row in
// rule_table.cpp. Each factory reads its own section of the pipeline file
// (module.<name>.<key>) and may switch its module off, saying why.
#pragma once

#include <memory>

#include "engine/pipeline.h"

namespace codepayload::rules {

// Every built-in module, sorted by name: rule_table.cpp.
RuleModuleTable builtinRuleModules();

RuleModuleStart makePrimaryKeyRule(const ModuleSettings& settings);
RuleModuleStart makeNormalisationRule(const ModuleSettings& settings);
RuleModuleStart makeAiKeysRule(const ModuleSettings& settings);
RuleModuleStart makeAiFormatRule(const ModuleSettings& settings);
RuleModuleStart makeRelationsRule(const ModuleSettings& settings);
RuleModuleStart makeDigitalLinkPlacementRule(const ModuleSettings& settings);
RuleModuleStart makeDigitalLinkStemRule(const ModuleSettings& settings);
RuleModuleStart makeLinkTypeRule(const ModuleSettings& settings);
RuleModuleStart makeContextRule(const ModuleSettings& settings);
RuleModuleStart makeExtensionParametersRule(const ModuleSettings& settings);

}  // namespace codepayload::rules
