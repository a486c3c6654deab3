// The built-in rule modules: one job each, one file each, one row in
// rule_table.cpp. Each factory reads what it needs from the pipeline settings.
#pragma once

#include <memory>

#include "engine/pipeline.h"

namespace codepayload::rules {

// Every built-in module, sorted by name: rule_table.cpp.
RuleModuleTable builtinRuleModules();

std::unique_ptr<RuleModule> makePrimaryKeyRule(const PipelineSettings& settings);
std::unique_ptr<RuleModule> makeNormalisationRule(const PipelineSettings& settings);
std::unique_ptr<RuleModule> makeAiKeysRule(const PipelineSettings& settings);
std::unique_ptr<RuleModule> makeAiFormatRule(const PipelineSettings& settings);
std::unique_ptr<RuleModule> makeRelationsRule(const PipelineSettings& settings);
std::unique_ptr<RuleModule> makeDigitalLinkPlacementRule(const PipelineSettings& settings);
std::unique_ptr<RuleModule> makeDigitalLinkStemRule(const PipelineSettings& settings);
std::unique_ptr<RuleModule> makeLinkTypeRule(const PipelineSettings& settings);
std::unique_ptr<RuleModule> makeContextRule(const PipelineSettings& settings);
std::unique_ptr<RuleModule> makeExtensionParametersRule(const PipelineSettings& settings);

}  // namespace codepayload::rules
