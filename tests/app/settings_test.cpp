// The settings every binary shares: defaults, the properties file, the
// environment overrides, the folders, and the refusals (unknown variable,
// missing configuration folder, unknown key).
#include "app/settings.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "app/paths.h"
#include "tests/tools/test_files.h"

namespace codepayload::app {
namespace {

using codepayload::testing::TempDir;
using codepayload::testing::writeFile;

EnvironmentLookup environmentOf(const std::map<std::string, std::string>& variables) {
  return [variables](std::string_view name) -> std::optional<std::string> {
    const auto found = variables.find(std::string(name));
    if (found == variables.end()) return std::nullopt;
    return found->second;
  };
}

std::vector<std::string> namesOf(const std::map<std::string, std::string>& variables) {
  std::vector<std::string> names;
  for (const auto& [name, value] : variables) names.push_back(name);
  return names;
}

Settings load(const std::map<std::string, std::string>& variables) {
  return loadSettings(environmentOf(variables), namesOf(variables));
}

std::string refusalOf(const std::map<std::string, std::string>& variables) {
  try {
    load(variables);
  } catch (const SettingsError& error) {
    return error.what();
  }
  return "<no error>";
}

TEST(Settings, DefaultsComeFromTheSourceTreeAndTheShippedFile) {
  const Settings settings = load({});
  EXPECT_EQ(settings.configDir, defaultConfigDir());
  EXPECT_EQ(settings.configDir, std::filesystem::path(CODEPAYLOAD_TEST_SOURCE_DIR) / "config");
  EXPECT_EQ(settings.propertiesFile, defaultConfigDir() / "codepayload.properties");
  EXPECT_EQ(settings.dataDir, "./data");
  EXPECT_EQ(settings.rulesDir, std::filesystem::path(CODEPAYLOAD_TEST_SOURCE_DIR) / "rules");
  EXPECT_EQ(settings.schemaDir, std::filesystem::path(CODEPAYLOAD_TEST_SOURCE_DIR) / "db");
  // The shipped file writes the defaults out: data.dir is one of its values.
  EXPECT_EQ(settings.values.at("data.dir"),
            (SettingValue{"./data", "configuration file " + (defaultConfigDir() / "codepayload.properties").string() +
                                        ", key data.dir"}));
}

TEST(Settings, AConfigurationFolderWithoutAFileGivesTheBuiltInDefaults) {
  TempDir config;
  const Settings settings = load({{"CODEPAYLOAD_CONFIG_DIR", config.path().string()}});
  EXPECT_EQ(settings.configDir, config.path());
  EXPECT_FALSE(settings.propertiesFile);
  EXPECT_EQ(settings.dataDir, "./data");
  EXPECT_TRUE(settings.values.empty());
}

TEST(Settings, TheFileSetsTheDataFolderAndTheEnvironmentWins) {
  TempDir config;
  writeFile(config / "codepayload.properties", "data.dir = /srv/codepayload \nlisten = 0.0.0.0:9443\n");
  const Settings fromFile = load({{"CODEPAYLOAD_CONFIG_DIR", config.path().string()}});
  EXPECT_EQ(fromFile.propertiesFile, config / "codepayload.properties");
  EXPECT_EQ(fromFile.dataDir, "/srv/codepayload");
  EXPECT_EQ(fromFile.values.at("listen"),
            (SettingValue{"0.0.0.0:9443",
                          "configuration file " + (config / "codepayload.properties").string() + ", key listen"}));

  const Settings overridden = load({{"CODEPAYLOAD_CONFIG_DIR", config.path().string()},
                                    {"CODEPAYLOAD_DATA_DIR", "/var/lib/other"},
                                    {"CODEPAYLOAD_RULES_DIR", "/opt/rules"},
                                    {"CODEPAYLOAD_DB_DIR", "/opt/db"}});
  EXPECT_EQ(overridden.dataDir, "/var/lib/other");
  EXPECT_EQ(overridden.values.at("data.dir"),
            (SettingValue{"/var/lib/other", "environment variable CODEPAYLOAD_DATA_DIR (key data.dir)"}));
  EXPECT_EQ(overridden.rulesDir, "/opt/rules");
  EXPECT_EQ(overridden.schemaDir, "/opt/db");
}

TEST(Settings, AnEmptyFolderVariableMeansTheDefault) {
  const Settings settings =
      load({{"CODEPAYLOAD_RULES_DIR", ""}, {"CODEPAYLOAD_DB_DIR", ""}, {"CODEPAYLOAD_CONFIG_DIR", ""}});
  EXPECT_EQ(settings.rulesDir, defaultRulesDir());
  EXPECT_EQ(settings.schemaDir, defaultSchemaDir());
  EXPECT_EQ(settings.configDir, defaultConfigDir());
}

TEST(Settings, AnEmptyDataFolderIsRefusedNamingItsSource) {
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_DATA_DIR", " "}}),
            "environment variable CODEPAYLOAD_DATA_DIR (key data.dir): must not be empty");
  TempDir config;
  writeFile(config / "codepayload.properties", "data.dir =\n");
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_CONFIG_DIR", config.path().string()}}),
            "configuration file " + (config / "codepayload.properties").string() + ", key data.dir: must not be empty");
}

// Every binary, not only the server, checks each value against the table.
TEST(Settings, EveryValueIsCheckedAgainstTheTableNamingItsSource) {
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_MAX_ITEMS", "abc"}}),
            "environment variable CODEPAYLOAD_MAX_ITEMS (key limits.maxItems): must be a whole number between 1 and "
            "10000000, got 'abc'");
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_TOKEN_TTL", "86401"}}),
            "environment variable CODEPAYLOAD_TOKEN_TTL (key token.ttl): must be between 1 and 86400, got '86401'");
  TempDir config;
  writeFile(config / "codepayload.properties", "http.forwardedHeader = X-Real-IP\n");
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_CONFIG_DIR", config.path().string()}}),
            "configuration file " + (config / "codepayload.properties").string() +
                ", key http.forwardedHeader: must be X-Forwarded-For or Forwarded (the one header the trusted proxies "
                "write the client's address into), got 'X-Real-IP'");
  EXPECT_EQ(integerSetting(load({{"CODEPAYLOAD_MAX_ITEMS", "7"}}), "limits.maxItems"), 7);
  EXPECT_EQ(integerSetting(load({}), "limits.maxItems"), 100000);
}

// registry.url is checked by its own parser (app/registry_url.h), in its words,
// which never carry the password.
TEST(Settings, TheRegistryUrlIsCheckedByItsParser) {
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_REGISTRY_URL", "mysql://app:Pw-9sQ@db/registry"}}),
            "environment variable CODEPAYLOAD_REGISTRY_URL (key registry.url): \"mysql://...\" is not a PostgreSQL "
            "URL (postgresql://user:password@host:port/dbname)");
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_REGISTRY_URL", "postgresql://app:Pw-9sQ@db/registry?sslmode=on"}}),
            "environment variable CODEPAYLOAD_REGISTRY_URL (key registry.url): sslmode \"on\" is not one of disable, "
            "allow, prefer, require, verify-ca, verify-full");
  const Settings settings = load({{"CODEPAYLOAD_REGISTRY_URL", "postgresql://app@db/registry"},
                                  {"CODEPAYLOAD_REGISTRY_PASSWORD_FILE", "/run/secrets/registry-password"}});
  EXPECT_EQ(settings.values.at("registry.url").text, "postgresql://app@db/registry");
  EXPECT_EQ(settings.values.at("registry.passwordFile").text, "/run/secrets/registry-password");
}

TEST(Settings, AnUnknownKeyInTheFileIsRefused) {
  TempDir config;
  writeFile(config / "codepayload.properties", "data.dri = x\n");
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_CONFIG_DIR", config.path().string()}}),
            "configuration file " + (config / "codepayload.properties").string() + ": unknown key 'data.dri'");
}

TEST(Settings, AMissingConfigurationFolderIsRefused) {
  TempDir scratch;
  const std::filesystem::path missing = scratch / "no-such-config";
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_CONFIG_DIR", missing.string()}}),
            "environment variable CODEPAYLOAD_CONFIG_DIR: the folder " + missing.string() + " does not exist");
  // A file is not a folder either.
  writeFile(scratch / "file", "");
  EXPECT_EQ(
      refusalOf({{"CODEPAYLOAD_CONFIG_DIR", (scratch / "file").string()}}),
      "environment variable CODEPAYLOAD_CONFIG_DIR: the folder " + (scratch / "file").string() + " does not exist");
}

TEST(Settings, AnUnknownVariableNamesTheNearestKnownOne) {
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_LISTN", "127.0.0.1:0"}}),
            "unknown environment variable CODEPAYLOAD_LISTN (did you mean CODEPAYLOAD_LISTEN?)");
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_DATADIR", "x"}}),
            "unknown environment variable CODEPAYLOAD_DATADIR (did you mean CODEPAYLOAD_DATA_DIR?)");
}

TEST(Settings, AnUnknownVariableFarFromAllListsTheKnownOnes) {
  std::string known;
  for (const std::string_view name : knownEnvironmentVariables())
    known += (known.empty() ? "" : ", ") + std::string(name);
  EXPECT_EQ(refusalOf({{"CODEPAYLOAD_SOMETHING_ELSE", "1"}}),
            "unknown environment variable CODEPAYLOAD_SOMETHING_ELSE; the known ones are " + known);
  EXPECT_TRUE(
      known.starts_with("CODEPAYLOAD_ACCESS_LOG, CODEPAYLOAD_AUDIENCE, CODEPAYLOAD_BACKLOG, "
                        "CODEPAYLOAD_CONFIG_DIR, CODEPAYLOAD_DASHBOARD_ENABLED, CODEPAYLOAD_DASHBOARD_LISTEN, "
                        "CODEPAYLOAD_DATA_DIR, CODEPAYLOAD_DB_DIR, "))
      << known;
}

TEST(Settings, TheKnownVariablesAreTheKeysAndTheThreeFolders) {
  const std::vector<std::string_view> known = knownEnvironmentVariables();
  EXPECT_EQ(known.size(), settingTable().size() + 3);
  EXPECT_TRUE(std::is_sorted(known.begin(), known.end()));
  for (const std::string_view name : {"CODEPAYLOAD_CONFIG_DIR", "CODEPAYLOAD_RULES_DIR", "CODEPAYLOAD_DB_DIR",
                                      "CODEPAYLOAD_DATA_DIR", "CODEPAYLOAD_LISTEN", "CODEPAYLOAD_ACCESS_LOG"}) {
    EXPECT_TRUE(std::binary_search(known.begin(), known.end(), name)) << name;
  }
  // Every known variable passes.
  std::vector<std::string> all(known.begin(), known.end());
  EXPECT_NO_THROW(checkEnvironmentNames(all));
}

TEST(Settings, TheProcessEnvironmentNamesAreItsCodepayloadVariables) {
  ::setenv("CODEPAYLOAD_SETTINGS_TEST_MARKER", "1", 1);
  ::setenv("NOT_CODEPAYLOAD_MARKER", "1", 1);
  const std::vector<std::string> names = processEnvironmentNames();
  ::unsetenv("CODEPAYLOAD_SETTINGS_TEST_MARKER");
  ::unsetenv("NOT_CODEPAYLOAD_MARKER");
  EXPECT_NE(std::find(names.begin(), names.end(), "CODEPAYLOAD_SETTINGS_TEST_MARKER"), names.end());
  for (const std::string& name : names) EXPECT_TRUE(name.starts_with("CODEPAYLOAD_")) << name;
}

}  // namespace
}  // namespace codepayload::app
