// The settings every binary shares, read once at start:
//   1. the CODEPAYLOAD_* environment variables must all be known ones;
//   2. the configuration folder: $CODEPAYLOAD_CONFIG_DIR (which must exist
//      when given) or the source tree's config/;
//   3. <config folder>/codepayload.properties when it exists (an unknown key
//      is refused), each key overridden by its environment variable, every
//      value checked against the settings table (app/settings_table.h);
//   4. the data folder (data.dir, default ./data), the rules folder
//      ($CODEPAYLOAD_RULES_DIR) and the schema folder ($CODEPAYLOAD_DB_DIR).
// The server reads its own keys from the same values (server/config/server_config.h);
// the command-line tools use the folders and the values they need. A bad
// setting throws SettingsError whose text names the file or the variable, the
// key and why.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "app/settings_table.h"

namespace codepayload::app {

struct SettingsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Exit status of every binary whose settings are refused (EX_CONFIG).
inline constexpr int kExitConfig = 78;

inline constexpr std::string_view kPropertiesFileName = "codepayload.properties";
inline constexpr std::string_view kDefaultDataDir = "./data";
inline constexpr std::string_view kRulesDatabaseFile = "rules.db";  // in the data folder
inline constexpr std::string_view kConfigDirVariable = "CODEPAYLOAD_CONFIG_DIR";
inline constexpr std::string_view kRulesDirVariable = "CODEPAYLOAD_RULES_DIR";
inline constexpr std::string_view kSchemaDirVariable = "CODEPAYLOAD_DB_DIR";

// Looks up an environment variable; nullopt when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view name)>;

// The process environment (std::getenv).
EnvironmentLookup processEnvironment();

// The names of the process's environment variables that start with CODEPAYLOAD_.
std::vector<std::string> processEnvironmentNames();

// Every CODEPAYLOAD_* variable a binary accepts: the keys' variables and the
// three folder variables, sorted.
std::vector<std::string_view> knownEnvironmentVariables();

// Throws SettingsError for the first name that is not a known variable:
// "unknown environment variable NAME (did you mean KNOWN?)" when one known
// name is close, else the line lists the known names.
void checkEnvironmentNames(std::span<const std::string> names);

// A key's text value and where it came from: "configuration file F, key K"
// or "environment variable V (key K)".
struct SettingValue {
  std::string text;  // blanks around it trimmed
  std::string source;

  bool operator==(const SettingValue&) const = default;
};

using SettingValues = std::map<std::string, SettingValue, std::less<>>;

// Reads `propertiesFile` (which must exist when given; an unknown key is an
// error), then the environment overrides.
SettingValues readSettingValues(const std::optional<std::filesystem::path>& propertiesFile,
                                const EnvironmentLookup& environment);

// Checks every value against its row of the settings table; throws
// SettingsError("SOURCE: why") for the first bad one.
void checkSettingValues(const SettingValues& values);

// The rules and schema folders: the variables when set (and not empty), else
// the source tree's.
std::filesystem::path rulesDirFrom(const EnvironmentLookup& environment);
std::filesystem::path schemaDirFrom(const EnvironmentLookup& environment);

struct Settings {
  std::filesystem::path configDir;
  std::optional<std::filesystem::path> propertiesFile;  // set when the file exists
  std::filesystem::path dataDir{std::string(kDefaultDataDir)};
  std::filesystem::path rulesDir;
  std::filesystem::path schemaDir;
  SettingValues values;  // every key given, for the server's own settings
};

// Steps 1 to 4 above. `environmentNames`: the CODEPAYLOAD_* names present.
Settings loadSettings(const EnvironmentLookup& environment, std::span<const std::string> environmentNames);

// loadSettings over the process environment.
Settings loadProcessSettings();

// The value of an Integer, Seconds or Milliseconds key: the one given, else
// its default. Throws SettingsError as checkSettingValues does.
std::int64_t integerSetting(const Settings& settings, std::string_view key);

}  // namespace codepayload::app
