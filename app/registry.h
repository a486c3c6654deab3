// The registry (organizations, API clients, people and the audit log, usage
// counts) is opened here and nowhere else: the server, its dashboard and the
// command-line tools get its parts as interfaces and never learn what keeps
// them. Today one backend exists, SQLite files in the data directory
// (app/sqlite_registry.h); another is one more implementation of Registry and
// one more branch in openRegistry.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "accounts/account_store.h"
#include "accounts/audit_log.h"
#include "auth/client_registry.h"
#include "auth/secret_hasher.h"
#include "auth/unix_clock.h"
#include "auth/usage_store.h"

namespace codepayload::app {

struct RegistryLocation {
  std::filesystem::path dataDir;        // holds the registry; created (0700) when absent
  std::filesystem::path migrationsDir;  // auth::registryMigrationsDir(<schema folder>)
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
};

// The registry at `location`, of the backend it names; opens nothing yet.
std::unique_ptr<Registry> openRegistry(const RegistryLocation& location);

}  // namespace codepayload::app
