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
std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item(common::trimSpaceAndTab(std::string_view(text).substr(start, comma - start)));
    if (!item.empty()) items.push_back(std::move(item));
    start = comma + 1;
  }
  return items;
}

}  // namespace

PipelineSettings PipelineSettings::load(const std::filesystem::path& file) {
  Poco::AutoPtr<Poco::Util::PropertyFileConfiguration> config;
  try {
    config = new Poco::Util::PropertyFileConfiguration(file.string());
  } catch (const Poco::Exception& e) {
    throw SnapshotError(file.string() + ": cannot be read: " + e.displayText());
  }
  PipelineSettings settings;
  settings.steps = splitList(config->getString("pipeline.steps", ""));
  if (settings.steps.empty()) throw SnapshotError(file.string() + ": pipeline.steps names no rule module");
  settings.gtinNormalisedAis = splitList(config->getString("normalise.gtin.ais", ""));
  settings.temperatureNormalisedAis = splitList(config->getString("normalise.temperature.ais", ""));
  settings.elementStringOnlyPrimaryKeys = splitList(config->getString("primaryKey.elementStringOnly", ""));
  for (const std::string& alias : splitList(config->getString("linkType.aliases", ""))) {
    std::size_t equals = alias.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == alias.size()) {
      throw SnapshotError(file.string() + ": linkType.aliases: \"" + alias + "\" is not name=target");
    }
    settings.linkTypeAliases.emplace_back(common::trimSpaceAndTab(std::string_view(alias).substr(0, equals)),
                                          common::trimSpaceAndTab(std::string_view(alias).substr(equals + 1)));
  }
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

Pipeline::Pipeline(std::vector<Step> steps, std::vector<ModuleState> states, PipelineSettings settings)
    : steps_(std::move(steps)), states_(std::move(states)), settings_(std::move(settings)) {}

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
