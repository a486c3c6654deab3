#include "app/settings.h"

#include <Poco/AutoPtr.h>
#include <Poco/Exception.h>
#include <Poco/Util/PropertyFileConfiguration.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "app/paths.h"
#include "common/ascii.h"
#include "common/edit_distance.h"

extern char** environ;

namespace codepayload::app {

namespace {

// Keys with dots are nested in Poco's view: walk the tree to the leaves.
std::vector<std::string> leafKeys(const Poco::Util::AbstractConfiguration& file) {
  std::vector<std::string> keys;
  file.keys(keys);
  std::vector<std::string> leaves;
  while (!keys.empty()) {
    std::string key = std::move(keys.back());
    keys.pop_back();
    std::vector<std::string> children;
    file.keys(key, children);
    if (children.empty()) {
      leaves.push_back(std::move(key));
    } else {
      if (file.has(key)) leaves.push_back(key);
      for (auto& child : children) keys.push_back(key + "." + child);
    }
  }
  return leaves;
}

std::filesystem::path directoryFrom(const EnvironmentLookup& environment, std::string_view variable,
                                    const std::filesystem::path& fallback) {
  const std::optional<std::string> value = environment(variable);
  return (value && !value->empty()) ? std::filesystem::path(*value) : fallback;
}

}  // namespace

EnvironmentLookup processEnvironment() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

std::vector<std::string> processEnvironmentNames() {
  std::vector<std::string> names;
  for (char** variable = environ; variable != nullptr && *variable != nullptr; ++variable) {
    const std::string_view entry(*variable);
    if (entry.starts_with("CODEPAYLOAD_")) names.emplace_back(entry.substr(0, entry.find('=')));
  }
  return names;
}

std::vector<std::string_view> knownEnvironmentVariables() {
  std::vector<std::string_view> names{kConfigDirVariable, kRulesDirVariable, kSchemaDirVariable};
  for (const SettingRow& row : settingTable()) names.push_back(row.environmentVariable);
  std::sort(names.begin(), names.end());
  return names;
}

void checkEnvironmentNames(std::span<const std::string> names) {
  const std::vector<std::string_view> known = knownEnvironmentVariables();
  for (const std::string& name : names) {
    if (std::binary_search(known.begin(), known.end(), std::string_view(name))) continue;
    const std::string_view nearest = common::nearestWithin(name, known, 3);  // further than 3 edits is no typo
    if (!nearest.empty()) {
      throw SettingsError("unknown environment variable " + name + " (did you mean " + std::string(nearest) + "?)");
    }
    std::string list;
    for (const std::string_view candidate : known) list += (list.empty() ? "" : ", ") + std::string(candidate);
    throw SettingsError("unknown environment variable " + name + "; the known ones are " + list);
  }
}

SettingValues readSettingValues(const std::optional<std::filesystem::path>& propertiesFile,
                                const EnvironmentLookup& environment) {
  SettingValues values;
  if (propertiesFile) {
    const std::string fileName = propertiesFile->string();
    if (!std::filesystem::is_regular_file(*propertiesFile)) {
      throw SettingsError("configuration file " + fileName + " does not exist");
    }
    Poco::AutoPtr<Poco::Util::PropertyFileConfiguration> file;
    try {
      file = new Poco::Util::PropertyFileConfiguration(fileName);
    } catch (const Poco::Exception& error) {
      throw SettingsError("configuration file " + fileName + ": " + error.displayText());
    }
    std::set<std::string_view> known;
    for (const SettingRow& row : settingTable()) known.insert(row.key);
    for (const std::string& key : leafKeys(*file)) {
      if (!known.contains(key)) throw SettingsError("configuration file " + fileName + ": unknown key '" + key + "'");
    }
    for (const SettingRow& row : settingTable()) {
      const std::string name(row.key);
      if (file->hasProperty(name)) {
        values[name] = SettingValue{std::string(common::trimSpaceAndTab(file->getRawString(name))),
                                    "configuration file " + fileName + ", key " + name};
      }
    }
  }
  for (const SettingRow& row : settingTable()) {
    if (const std::optional<std::string> value = environment(row.environmentVariable)) {
      values[std::string(row.key)] = SettingValue{
          std::string(common::trimSpaceAndTab(*value)),
          "environment variable " + std::string(row.environmentVariable) + " (key " + std::string(row.key) + ")"};
    }
  }
  return values;
}

void checkSettingValues(const SettingValues& values) {
  for (const auto& [key, value] : values) {
    try {
      checkSettingValue(*findSetting(key), value.text);
    } catch (const SettingsError& error) {
      throw SettingsError(value.source + ": " + error.what());
    }
  }
}

std::filesystem::path rulesDirFrom(const EnvironmentLookup& environment) {
  return directoryFrom(environment, kRulesDirVariable, defaultRulesDir());
}

std::filesystem::path schemaDirFrom(const EnvironmentLookup& environment) {
  return directoryFrom(environment, kSchemaDirVariable, defaultSchemaDir());
}

Settings loadSettings(const EnvironmentLookup& environment, std::span<const std::string> environmentNames) {
  checkEnvironmentNames(environmentNames);
  Settings settings;
  const std::optional<std::string> configDir = environment(kConfigDirVariable);
  settings.configDir = directoryFrom(environment, kConfigDirVariable, defaultConfigDir());
  if (configDir && !configDir->empty() && !std::filesystem::is_directory(settings.configDir)) {
    throw SettingsError("environment variable " + std::string(kConfigDirVariable) + ": the folder " +
                        settings.configDir.string() + " does not exist");
  }
  const std::filesystem::path file = settings.configDir / kPropertiesFileName;
  if (std::filesystem::exists(file)) settings.propertiesFile = file;
  settings.values = readSettingValues(settings.propertiesFile, environment);
  checkSettingValues(settings.values);
  if (const auto dataDir = settings.values.find("data.dir"); dataDir != settings.values.end()) {
    settings.dataDir = std::filesystem::path(dataDir->second.text);
  }
  settings.rulesDir = rulesDirFrom(environment);
  settings.schemaDir = schemaDirFrom(environment);
  return settings;
}

Settings loadProcessSettings() { return loadSettings(processEnvironment(), processEnvironmentNames()); }

std::int64_t integerSetting(const Settings& settings, std::string_view key) {
  const SettingRow& row = *findSetting(key);
  const auto value = settings.values.find(key);
  if (value == settings.values.end()) return readInteger(row, row.defaultValue);
  try {
    return readInteger(row, value->second.text);
  } catch (const SettingsError& error) {
    throw SettingsError(value->second.source + ": " + error.what());
  }
}

}  // namespace codepayload::app
