#include "app/sqlite_registry.h"

#include <sys/stat.h>

#include <optional>
#include <utility>
#include <vector>

#include "app/sql_registry.h"

namespace codepayload::app {

namespace {

// One registry.db for every part, the pepper and the signing keys beside it.
class SqliteRegistry final : public SqlRegistry {
 public:
  explicit SqliteRegistry(const RegistryLocation& location)
      : SqlRegistry(auth::RegistryDatabase::sqlite(location.dataDir / kRegistryDatabaseFile), location.migrationsDir),
        dataDir_(location.dataDir) {}

  bool exists() const override { return std::filesystem::exists(database().file); }

  const auth::SecretHasher& secretHasher() override {
    if (!hasher_) hasher_.emplace(auth::SecretHasher::loadOrCreate(preparedDataDir() / kPepperFile));
    return *hasher_;
  }

  bool signingKeysMayChange() const override { return false; }

  std::unique_ptr<PublishedReleases> openPublishedReleases() override { return nullptr; }

  KeyRotation rotateSigningKeys(auth::SigningAlgorithm, std::int64_t, std::int64_t) override {
    throw RegistryConfigurationError(
        "keys rotate: the SQLite registry in " + dataDir_.string() +
        " rotates its key files with a restart of the server at each step (docs/operations.md); one command rotates"
        " the keys of a PostgreSQL registry (registry.url)");
  }

  auth::SigningKeySet signingKeys() override {
    const std::filesystem::path& dataDir = preparedDataDir();
    auth::SigningKey active = auth::SigningKey::loadOrCreate(dataDir / kSigningKeyFile);
    std::vector<auth::SigningKey> published;
    for (const std::string_view file : {kPreviousSigningKeyFile, kNextSigningKeyFile}) {
      const std::filesystem::path path = dataDir / file;
      if (std::filesystem::exists(path)) published.push_back(auth::SigningKey::load(path));
    }
    return auth::SigningKeySet(std::move(active), std::move(published));
  }

 private:
  // The data directory, created (0700) when absent; an existing one keeps its mode.
  const std::filesystem::path& preparedDataDir() const {
    if (std::filesystem::create_directories(dataDir_)) ::chmod(dataDir_.c_str(), S_IRWXU);
    return dataDir_;
  }

  std::filesystem::path dataDir_;
  std::optional<auth::SecretHasher> hasher_;
};

}  // namespace

std::unique_ptr<Registry> openSqliteRegistry(const RegistryLocation& location) {
  return std::make_unique<SqliteRegistry>(location);
}

}  // namespace codepayload::app
