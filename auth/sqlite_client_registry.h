// ClientRegistry on SQLite through Poco::Data: WAL journal, a busy timeout,
// foreign keys on; the schema comes from db/registry/*.sql through the
// project's migration runner. Thread-safe (one connection behind a mutex).
#pragma once

#include <filesystem>
#include <memory>

#include "auth/client_registry.h"
#include "auth/secret_hasher.h"
#include "auth/unix_clock.h"

namespace codepayload::auth {

class SqliteClientRegistry final : public ClientRegistry {
 public:
  // Opens (creating it if absent) the database `databaseFile` and applies the
  // migrations in `migrationsDir` (normally schemaDir() / "registry").
  // `hasher` must outlive the registry. Throws RegistryError(Storage).
  SqliteClientRegistry(const std::filesystem::path& databaseFile, const std::filesystem::path& migrationsDir,
                       const SecretHasher& hasher, UnixClock clock = systemUnixSeconds);
  ~SqliteClientRegistry() override;

  SqliteClientRegistry(const SqliteClientRegistry&) = delete;
  SqliteClientRegistry& operator=(const SqliteClientRegistry&) = delete;

  Organisation createOrganisation(std::string_view name, Plan plan) override;
  void setPlan(std::string_view organisationId, Plan plan) override;
  void setSubscription(std::string_view organisationId, Subscription subscription) override;
  std::optional<Organisation> findOrganisation(std::string_view organisationId) override;
  std::vector<Organisation> listOrganisations() override;

  CreatedClient createClient(std::string_view organisationId, std::string_view name,
                             const std::vector<std::string>& scopes) override;
  std::vector<ClientRecord> listClients(std::string_view organisationId) override;
  std::optional<ClientRecord> findClient(std::string_view clientId) override;
  void setClientState(std::string_view clientId, ClientState state) override;

  std::optional<ClientAuthRecord> findClientForAuthentication(std::string_view clientId) override;
  std::vector<ClientStatus> listClientStatuses() override;
  std::uint64_t version() override;

 private:
  void updateOrganisation(std::string_view organisationId, std::string_view column, std::string_view value,
                          std::string_view what);

  struct Connection;
  std::unique_ptr<Connection> connection_;
  const SecretHasher& hasher_;
  UnixClock clock_;
};

}  // namespace codepayload::auth
