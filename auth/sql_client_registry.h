// ClientRegistry through Poco::Data, on SQLite or PostgreSQL
// (auth/registry_database.h); the schema comes from db/registry through the
// project's migration runner. Thread-safe: one connection behind a mutex, and
// the token endpoint's lookups on connections of their own
// (authentication_connections.h).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "auth/client_registry.h"
#include "auth/registry_database.h"
#include "auth/secret_hasher.h"
#include "auth/unix_clock.h"

namespace Poco::Data {
class Session;
}

namespace codepayload::auth {

class AuthenticationConnections;

// A change the registry made, as the audit log records it: the action
// ("org.create", "org.set-plan", "org.set-subscription", "client.create",
// "client.replace", "client.block", "client.unblock", "client.delete"), the
// organization, the object changed (an organization or client id; the new
// client of a replacement) and a short detail ("plan=pro", "scopes=read:codes",
// "replaces=<old client id> scopes=write:codes", "unchanged" for a block of a
// blocked client); never a secret or digest.
struct RegistryChange {
  std::string action;
  std::string organizationId;
  std::string target;
  std::string detail;

  bool operator==(const RegistryChange&) const = default;
};

// Called inside a change's write transaction, after the change and before its
// COMMIT, on the registry's session; what it writes commits with the change,
// and when it throws the change is rolled back and the call fails.
using ChangeRecorder = std::function<void(Poco::Data::Session& session, const RegistryChange& change)>;

class SqlClientRegistry final : public ClientRegistry {
 public:
  // Opens `database` (an SQLite file is created when absent) and applies
  // the migrations in `registryMigrations` (normally schemaDir() / "registry").
  // `hasher` must outlive the registry. Throws RegistryError(Storage).
  SqlClientRegistry(const RegistryDatabase& database, const std::filesystem::path& registryMigrations,
                    const SecretHasher& hasher, UnixClock clock = systemUnixSeconds);
  ~SqlClientRegistry() override;

  SqlClientRegistry(const SqlClientRegistry&) = delete;
  SqlClientRegistry& operator=(const SqlClientRegistry&) = delete;

  Organization createOrganization(std::string_view name, Plan plan) override;
  void setPlan(std::string_view organizationId, Plan plan) override;
  void setSubscription(std::string_view organizationId, Subscription subscription) override;
  std::optional<Organization> findOrganization(std::string_view organizationId) override;
  std::vector<Organization> listOrganizations() override;

  CreatedClient createClient(std::string_view organizationId, std::string_view name,
                             const std::vector<std::string>& scopes, std::string_view createdBy) override;
  CreatedClient replaceClient(std::string_view clientId, std::string_view createdBy) override;
  std::vector<ClientRecord> listClients(std::string_view organizationId) override;
  std::optional<ClientRecord> findClient(std::string_view clientId) override;
  void setClientState(std::string_view clientId, ClientState state) override;

  std::optional<ClientAuthRecord> findClientForAuthentication(std::string_view clientId) override;
  std::vector<ClientAuthRecord> listClientsForAuthentication() override;
  std::uint64_t version() override;

  // Records every later change with `recorder` (none by default). Not
  // synchronised with the changes: set it before the registry is shared.
  void setChangeRecorder(ChangeRecorder recorder);

 private:
  void updateOrganization(std::string_view organizationId, std::string_view column, std::string_view value,
                          std::string_view what, std::string_view action);
  // Inserts an active client inside the caller's write transaction, after
  // its organization's plan gate, and records it: "client.create", or
  // "client.replace" when it replaces another.
  CreatedClient insertClient(std::string_view organizationId, std::string_view name,
                             const std::vector<std::string>& scopes, std::string_view createdBy,
                             const std::optional<std::string>& replaces);

  struct Connection;
  std::unique_ptr<Connection> connection_;
  std::unique_ptr<AuthenticationConnections> authentication_;
  const SecretHasher& hasher_;
  UnixClock clock_;
};

}  // namespace codepayload::auth
