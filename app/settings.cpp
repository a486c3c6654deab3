#include "app/settings.h"

#include <Poco/AutoPtr.h>
#include <Poco/Exception.h>
#include <Poco/Util/PropertyFileConfiguration.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <set>

#include "app/paths.h"
#include "common/ascii.h"
#include "common/edit_distance.h"

extern char** environ;

namespace codepayload::app {

namespace {

constexpr std::array kKeys{
    SettingKey{"data.dir", "CODEPAYLOAD_DATA_DIR"},
    SettingKey{"listen", "CODEPAYLOAD_LISTEN"},
    SettingKey{"plain.listen", "CODEPAYLOAD_PLAIN_LISTEN"},
    SettingKey{"metrics.listen", "CODEPAYLOAD_METRICS_LISTEN"},
    SettingKey{"dashboard.enabled", "CODEPAYLOAD_DASHBOARD_ENABLED"},
    SettingKey{"dashboard.listen", "CODEPAYLOAD_DASHBOARD_LISTEN"},
    SettingKey{"tls.certificate", "CODEPAYLOAD_TLS_CERT"},
    SettingKey{"tls.privateKey", "CODEPAYLOAD_TLS_KEY"},
    SettingKey{"token.ttl", "CODEPAYLOAD_TOKEN_TTL"},
    SettingKey{"token.leewaySeconds", "CODEPAYLOAD_TOKEN_LEEWAY"},
    SettingKey{"token.issuer", "CODEPAYLOAD_ISSUER"},
    SettingKey{"token.audience", "CODEPAYLOAD_AUDIENCE"},
    SettingKey{"limits.maxBodyBytes", "CODEPAYLOAD_MAX_BODY_BYTES"},
    SettingKey{"limits.maxItems", "CODEPAYLOAD_MAX_ITEMS"},
    SettingKey{"limits.largeBodyBytes", "CODEPAYLOAD_LARGE_BODY_BYTES"},
    SettingKey{"limits.maxLargeRequestsPerClient", "CODEPAYLOAD_MAX_LARGE_REQUESTS_PER_CLIENT"},
    SettingKey{"limits.maxLargeRequestsPerOrganization", "CODEPAYLOAD_MAX_LARGE_REQUESTS_PER_ORGANIZATION"},
    SettingKey{"limits.maxLargeRequests", "CODEPAYLOAD_MAX_LARGE_REQUESTS"},
    SettingKey{"http.minThreads", "CODEPAYLOAD_MIN_THREADS"},
    SettingKey{"http.maxThreads", "CODEPAYLOAD_THREADS"},
    SettingKey{"http.maxQueued", "CODEPAYLOAD_MAX_QUEUED"},
    SettingKey{"http.maxConnections", "CODEPAYLOAD_MAX_CONNECTIONS"},
    SettingKey{"http.backlog", "CODEPAYLOAD_BACKLOG"},
    SettingKey{"http.ioTimeout", "CODEPAYLOAD_IO_TIMEOUT"},
    SettingKey{"http.keepAliveTimeout", "CODEPAYLOAD_KEEPALIVE_TIMEOUT"},
    SettingKey{"http.maxKeepAliveRequests", "CODEPAYLOAD_MAX_KEEPALIVE_REQUESTS"},
    SettingKey{"http.requestTimeout", "CODEPAYLOAD_REQUEST_TIMEOUT"},
    SettingKey{"http.minSendRate", "CODEPAYLOAD_MIN_SEND_RATE"},
    SettingKey{"http.firstBytesTimeout", "CODEPAYLOAD_FIRST_BYTES_TIMEOUT"},
    SettingKey{"http.tlsHandshakeTimeout", "CODEPAYLOAD_TLS_HANDSHAKE_TIMEOUT"},
    SettingKey{"http.trustedProxies", "CODEPAYLOAD_TRUSTED_PROXIES"},
    SettingKey{"http.forwardedHeader", "CODEPAYLOAD_FORWARDED_HEADER"},
    SettingKey{"http.maxConnectionsPerAddress", "CODEPAYLOAD_MAX_CONNECTIONS_PER_ADDRESS"},
    SettingKey{"shutdown.grace", "CODEPAYLOAD_SHUTDOWN_GRACE"},
    SettingKey{"rules.reloadIntervalMs", "CODEPAYLOAD_RELOAD_INTERVAL_MS"},
    SettingKey{"usage.flushInterval", "CODEPAYLOAD_USAGE_FLUSH_INTERVAL"},
    SettingKey{"log.access", "CODEPAYLOAD_ACCESS_LOG"},
};

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

std::span<const SettingKey> settingKeys() { return kKeys; }

std::vector<std::string_view> knownEnvironmentVariables() {
  std::vector<std::string_view> names{kConfigDirVariable, kRulesDirVariable, kSchemaDirVariable};
  for (const SettingKey& key : kKeys) names.push_back(key.environmentVariable);
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
    for (const SettingKey& key : kKeys) known.insert(key.key);
    for (const std::string& key : leafKeys(*file)) {
      if (!known.contains(key)) throw SettingsError("configuration file " + fileName + ": unknown key '" + key + "'");
    }
    for (const SettingKey& key : kKeys) {
      const std::string name(key.key);
      if (file->hasProperty(name)) {
        values[name] = SettingValue{std::string(common::trimSpaceAndTab(file->getRawString(name))),
                                    "configuration file " + fileName + ", key " + name};
      }
    }
  }
  for (const SettingKey& key : kKeys) {
    if (const std::optional<std::string> value = environment(key.environmentVariable)) {
      values[std::string(key.key)] = SettingValue{
          std::string(common::trimSpaceAndTab(*value)),
          "environment variable " + std::string(key.environmentVariable) + " (key " + std::string(key.key) + ")"};
    }
  }
  return values;
}

std::filesystem::path parseDataDir(std::string_view value) {
  if (value.empty()) throw SettingsError("must not be empty");
  return std::filesystem::path(std::string(value));
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
  if (const auto dataDir = settings.values.find("data.dir"); dataDir != settings.values.end()) {
    try {
      settings.dataDir = parseDataDir(dataDir->second.text);
    } catch (const SettingsError& error) {
      throw SettingsError(dataDir->second.source + ": " + error.what());
    }
  }
  settings.rulesDir = rulesDirFrom(environment);
  settings.schemaDir = schemaDirFrom(environment);
  return settings;
}

Settings loadProcessSettings() { return loadSettings(processEnvironment(), processEnvironmentNames()); }

}  // namespace codepayload::app
