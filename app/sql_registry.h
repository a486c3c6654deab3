// What both backends of the registry share: its stores (the client registry,
// the people and the audit log, the usage counts) on one
// auth::RegistryDatabase, each part on connections of its own. The backends
// add where the pepper and the signing keys are kept.
#pragma once

#include <filesystem>
#include <memory>

#include "app/registry.h"
#include "auth/registry_database.h"

namespace codepayload::app {

class SqlRegistry : public Registry {
 public:
  SqlRegistry(auth::RegistryDatabase database, std::filesystem::path migrationsDir)
      : database_(std::move(database)), migrationsDir_(std::move(migrationsDir)) {}

  std::string name() const override { return database_.name; }
  std::unique_ptr<auth::ClientRegistry> openClients(auth::UnixClock clock) override;
  std::unique_ptr<auth::ClientRegistry> openAuditedClients(ChangeActor actor) override;
  std::unique_ptr<accounts::AccountStore> openAccounts(auth::UnixClock clock) override;
  std::unique_ptr<auth::UsageStore> openUsage() override;

 protected:
  const auth::RegistryDatabase& database() const { return database_; }

 private:
  auth::RegistryDatabase database_;
  std::filesystem::path migrationsDir_;
};

}  // namespace codepayload::app
