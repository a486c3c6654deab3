#include "app/registry.h"

#include "app/postgresql_registry.h"
#include "app/sqlite_registry.h"
#include "auth/auth_service.h"

namespace codepayload::app {

namespace {

std::string settingText(const Settings& settings, std::string_view key) {
  const auto given = settings.values.find(key);
  return given == settings.values.end() ? std::string() : given->second.text;
}

}  // namespace

RegistryLocation registryLocationFrom(const Settings& settings) {
  RegistryLocation location;
  location.dataDir = settings.dataDir;
  location.migrationsDir = auth::registryMigrationsDir(settings.schemaDir);
  location.postgresql =
      readRegistryUrl(settingText(settings, "registry.url"), settingText(settings, "registry.passwordFile"));
  location.keyEncryptionKeyFile = settingText(settings, "secrets.keyEncryptionKeyFile");
  return location;
}

std::unique_ptr<Registry> openRegistry(const RegistryLocation& location) {
  if (location.postgresql) return openPostgresqlRegistry(location);
  return openSqliteRegistry(location);
}

}  // namespace codepayload::app
