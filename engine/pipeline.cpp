#include "engine/pipeline.h"

#include <algorithm>

#include <Poco/AutoPtr.h>
#include <Poco/Exception.h>
#include <Poco/Util/PropertyFileConfiguration.h>

#include "common/ascii.h"
#include "engine/item.h"
#include "engine/lua_runtime.h"
#include "engine/snapshot.h"

namespace codepayload {

namespace {

// Poco trims a property's value (line ends included), so only spaces and tabs
// are left around the items of a list.
std::vector<std::string> splitList(std::string_view text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string item(common::trimSpaceAndTab(text.substr(start, comma - start)));
    if (!item.empty()) items.push_back(std::move(item));
    start = comma + 1;
  }
  return items;
}

// Every key outside pipeline.steps and module.<name>.<key> is refused: the
// settings of the C++ modules were once top-level keys, and a file that still
// has them would otherwise lose them without a word.
void refuseForeignKeys(const Poco::Util::AbstractConfiguration& config, const std::filesystem::path& file) {
  Poco::Util::AbstractConfiguration::Keys roots;
  config.keys(roots);
  for (const std::string& root : roots) {
    Poco::Util::AbstractConfiguration::Keys keys;
    config.keys(root, keys);
    if (root == "module" || (root == "pipeline" && keys.size() == 1 && keys[0] == "steps")) continue;
    std::string key = root;
    for (; !keys.empty(); config.keys(key, keys)) key += "." + keys.front();
    throw SnapshotError(file.string() + ": \"" + key +
                        "\" is not a pipeline setting: the file holds pipeline.steps and module.<name>.<key> lines "
                        "(each rule module reads its own section; see docs/decisions.md D-A17)");
  }
}

const ModuleSettings kNoSettings;

}  // namespace

std::vector<std::string> settingList(const ModuleSettings& settings, std::string_view key) {
  auto found = settings.find(key);
  return found != settings.end() ? splitList(found->second) : std::vector<std::string>{};
}

const ModuleSettings& PipelineSettings::module(std::string_view name) const {
  auto found = modules.find(name);
  return found != modules.end() ? found->second : kNoSettings;
}

PipelineSettings PipelineSettings::load(const std::filesystem::path& file) {
  Poco::AutoPtr<Poco::Util::PropertyFileConfiguration> config;
  try {
    config = new Poco::Util::PropertyFileConfiguration(file.string());
  } catch (const Poco::Exception& e) {
    throw SnapshotError(file.string() + ": cannot be read: " + e.displayText());
  }
  refuseForeignKeys(*config, file);
  PipelineSettings settings;
  settings.steps = splitList(config->getString("pipeline.steps", ""));
  if (settings.steps.empty()) throw SnapshotError(file.string() + ": pipeline.steps names no rule module");
  Poco::Util::AbstractConfiguration::Keys moduleNames;
  config->keys("module", moduleNames);
  for (const std::string& moduleName : moduleNames) {
    Poco::Util::AbstractConfiguration::Keys keys;
    config->keys("module." + moduleName, keys);
    ModuleSettings& moduleSettings = settings.modules[moduleName];
    for (const std::string& key : keys) {
      moduleSettings[key] = config->getString("module." + moduleName + "." + key);
    }
  }
  return settings;
}

const RuleModuleEntry* RuleModuleTable::find(std::string_view name) const {
  const RuleModuleEntry* it = std::lower_bound(
      begin, end, name, [](const RuleModuleEntry& entry, std::string_view key) { return entry.name < key; });
  return (it != end && it->name == name) ? it : nullptr;
}

Pipeline::Pipeline(std::vector<Step> steps, std::vector<ModuleState> states)
    : steps_(std::move(steps)), states_(std::move(states)) {}

void Pipeline::run(ItemContext& item) const {
  for (const Step& step : steps_) {
    if (step.module) {
      step.module->check(item);
    } else {
      item.rules().lua().runModule(step.luaModule, item);
    }
  }
}

}  // namespace codepayload
