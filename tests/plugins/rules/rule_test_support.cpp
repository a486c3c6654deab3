#include "tests/plugins/rules/rule_test_support.h"

#include <map>
#include <mutex>
#include <ostream>
#include <stdexcept>

#include "db/import/rule_import.h"
#include "plugins/builtin_plugins.h"

namespace codepayload {

void PrintTo(const ValidationError& error, std::ostream* out) {
  *out << "{" << error.code << ", " << (error.path ? *error.path : std::string("null")) << ", [";
  for (std::size_t i = 0; i < error.args.size(); ++i) *out << (i == 0 ? "\"" : ", \"") << error.args[i] << "\"";
  *out << "]}";
}

}  // namespace codepayload

namespace codepayload::testing {

namespace {

const std::filesystem::path kRulesDir{CODEPAYLOAD_SOURCE_RULES_DIR};
const std::filesystem::path kSharedGs1Dir{CODEPAYLOAD_SHARED_GS1_DIR};

CodeDefinition viewOf(const TestDefinition& owned) {
  CodeDefinition definition;
  definition.primaryKey = AiInput{owned.primaryKey.key, owned.primaryKey.value};
  for (const TestAi& ai : owned.ais) definition.ais.push_back(AiInput{ai.key, ai.value});
  for (const TestAi& parameter : owned.extensionParameters) {
    definition.extensionParameters.push_back(ExtensionParameter{parameter.key, parameter.value});
  }
  if (owned.digitalLinkStem) definition.digitalLinkStem = *owned.digitalLinkStem;
  if (owned.linkType) definition.linkType = *owned.linkType;
  if (owned.context) definition.context = *owned.context;
  return definition;
}

}  // namespace

const Snapshot& baselineRules() {
  static const std::shared_ptr<const Snapshot> rules =
      Snapshot::build(importer::loadBaseline(importer::baselinePath(kRulesDir), builtinLinterCatalog(kRulesDir)),
                      kRulesDir, builtinPluginTables());
  return *rules;
}

const Snapshot& releaseRules(const std::string& release) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const Snapshot>> built;
  std::lock_guard lock(mutex);
  std::shared_ptr<const Snapshot>& rules = built[release];
  if (!rules) {
    rules = Snapshot::build(importer::loadRelease(kSharedGs1Dir / ("gs1-syntax-dictionary-" + release + ".txt"),
                                                  kSharedGs1Dir / "link-types.json", builtinLinterCatalog(kRulesDir)),
                            kRulesDir, builtinPluginTables());
  }
  return *rules;
}

const PipelineSettings& shippedSettings() {
  static const PipelineSettings settings = PipelineSettings::load(kRulesDir / "pipeline.properties");
  return settings;
}

const ModuleSettings& shippedModuleSettings(std::string_view name) { return shippedSettings().module(name); }

RuleModuleStart startModule(std::string_view name, const ModuleSettings& settings) {
  const RuleModuleEntry* entry = rules::builtinRuleModules().find(name);
  if (entry == nullptr) throw std::invalid_argument("no built-in rule module named " + std::string(name));
  return entry->create(settings);
}

std::unique_ptr<RuleModule> makeModule(std::string_view name, const ModuleSettings& settings) {
  RuleModuleStart start = startModule(name, settings);
  if (start.module == nullptr) {
    throw std::invalid_argument("rule module " + std::string(name) + " is switched off: " + start.offReason);
  }
  return std::move(start.module);
}

std::unique_ptr<RuleModule> makeModule(std::string_view name) { return makeModule(name, shippedModuleSettings(name)); }

const ModuleState& shippedModuleState(std::string_view name) {
  for (const ModuleState& state : baselineRules().pipeline().states()) {
    if (state.name == name) return state;
  }
  throw std::invalid_argument("the shipped pipeline has no step named " + std::string(name));
}

TestItem::TestItem(TestDefinition definition, const Snapshot& rules)
    : owned_(std::move(definition)),
      definition_(viewOf(owned_)),
      context_(rules, definition_, 0, errors_, aiStorage_) {}

const std::vector<ValidationError>& TestItem::run(const RuleModule& module) {
  module.check(context_);
  return errors_;
}

const std::vector<ValidationError>& TestItem::run(std::string_view name) { return run(*makeModule(name)); }

ValidationError error(std::string code, std::optional<std::string> path, std::vector<std::string> args) {
  return ValidationError{std::move(code), std::move(path), std::move(args)};
}

}  // namespace codepayload::testing
