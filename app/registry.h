// The registry (organizations, API clients, people and the audit log, usage
// counts, the pepper of client secrets and the token-signing keys) is opened
// here and nowhere else: the server, its dashboard and the command-line tools
// get its parts as interfaces and never learn what keeps them. Two backends:
// SQLite and files in the data directory (app/sqlite_registry.h), the
// default; one PostgreSQL database that several instances share, its secrets
// sealed under a key-encryption key (app/postgresql_registry.h).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "accounts/account_store.h"
#include "accounts/audit_log.h"
#include "app/published_releases.h"
#include "app/registry_url.h"
#include "app/settings.h"
#include "auth/client_registry.h"
#include "auth/secret_hasher.h"
#include "auth/signing_keys.h"
#include "auth/unix_clock.h"
#include "auth/usage_store.h"

namespace codepayload::app {

struct RegistryLocation {
  std::filesystem::path dataDir;        // holds an SQLite registry; created (0700) when absent
  std::filesystem::path migrationsDir;  // auth::registryMigrationsDir(<schema folder>)
  // registry.url read (app/registry_url.h): nullopt for SQLite in dataDir.
  std::optional<PostgresqlRegistry> postgresql;
  // secrets.keyEncryptionKeyFile: required with a PostgreSQL registry.
  std::filesystem::path keyEncryptionKeyFile;
};

// What a rotation did: the new key, when it was published and when it signs
// from (Unix seconds), and each key it retires with its time.
struct KeyRotation {
  std::string kid;
  std::string algorithm;
  std::int64_t publishedAt = 0;
  std::int64_t signsFrom = 0;
  std::vector<std::pair<std::string, std::int64_t>> retiring;
};

// A registry that cannot be used as configured: a PostgreSQL server that
// cannot be reached or refuses the credentials, a database that is not a
// registry, a key-encryption key that is missing or not the registry's. One
// line naming the setting to fix; the binaries exit with kExitConfig (78).
struct RegistryConfigurationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Who a change of the client registry is audited as, asked at each change;
// nullptr refuses the change, so no change goes unrecorded.
using ChangeActor = std::function<const accounts::AuditContext*()>;

// The parts are opened on demand, each on connections of its own; the
// Registry must outlive every part it opened. Not thread-safe: a process opens
// its parts at start and shares the parts, which are thread-safe.
class Registry {
 public:
  virtual ~Registry() = default;

  // What messages name the registry by (the absolute path of its database).
  virtual std::string name() const = 0;
  // Whether it exists already (codepayload-admin creates one only for init).
  virtual bool exists() const = 0;

  // The hasher of client secrets, with the installation's pepper; the first
  // call creates the pepper when absent. Throws auth::PepperError.
  virtual const auth::SecretHasher& secretHasher() = 0;

  // The token-signing keys in force now: the active one (created, EC P-256,
  // when the registry has none) and those only published. Throws
  // auth::SigningKeyError.
  virtual auth::SigningKeySet signingKeys() = 0;
  // Whether the keys in force change while a server runs (a rotation in a
  // shared registry), so that it reads signingKeys() again, from its own
  // thread: PostgreSQL. SQLite's key files change only with a restart.
  virtual bool signingKeysMayChange() const = 0;

  // A key rotation, one command for every instance of a shared registry: a
  // new key of `algorithm`, published (in the JWKS, and its tokens accepted)
  // at once and signing from `signsAfter` seconds on; every other key in
  // force retires `retireAfter` seconds after the new one starts to sign.
  // Throws RegistryConfigurationError where keys change only with a restart.
  virtual KeyRotation rotateSigningKeys(auth::SigningAlgorithm algorithm, std::int64_t signsAfter,
                                        std::int64_t retireAfter) = 0;

  // The client registry, created and migrated when absent; changes are not
  // audited. Throws auth::RegistryError(Storage).
  virtual std::unique_ptr<auth::ClientRegistry> openClients(auth::UnixClock clock) = 0;
  // The same, but every change is audited as made by `actor`, in the change's
  // own transaction.
  virtual std::unique_ptr<auth::ClientRegistry> openAuditedClients(ChangeActor actor) = 0;
  // The people and the audit log. Throws accounts::AccountError(Storage).
  virtual std::unique_ptr<accounts::AccountStore> openAccounts(auth::UnixClock clock) = 0;
  // The usage counts, of a registry already created (by openClients or
  // openAccounts). Throws auth::RegistryError(Storage).
  virtual std::unique_ptr<auth::UsageStore> openUsage() = 0;
  // The dictionary releases published to every instance: PostgreSQL's;
  // nullptr for SQLite, whose one instance reads the rule database in its
  // data directory. Throws RegistryConfigurationError.
  virtual std::unique_ptr<PublishedReleases> openPublishedReleases() = 0;
};

// Where the registry of `settings` is: data.dir, the schema folder's
// migrations, registry.url and registry.passwordFile (read now: throws
// RegistryUrlError), secrets.keyEncryptionKeyFile.
RegistryLocation registryLocationFrom(const Settings& settings);

// The registry at `location`, of the backend it names. SQLite opens nothing
// yet; PostgreSQL connects, migrates and checks the key-encryption key at
// once. Throws RegistryConfigurationError.
std::unique_ptr<Registry> openRegistry(const RegistryLocation& location);

}  // namespace codepayload::app
