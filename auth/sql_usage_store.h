// The usage store (db/registry/0004_client_usage.sql), on SQLite or
// PostgreSQL. Its own connection to the registry, so a write never waits for, or
// holds, the client registry's lock that the token endpoint takes. Portable
// SQL (D-D12); thread-safe (one connection behind a mutex).
#pragma once

#include <memory>

#include "auth/registry_database.h"
#include "auth/usage_store.h"

namespace codepayload::auth {

class SqlUsageStore final : public UsageStore {
 public:
  // Opens `database`, a registry already migrated (the client registry
  // applies the migrations). Throws RegistryError(Storage).
  explicit SqlUsageStore(const RegistryDatabase& database);
  ~SqlUsageStore() override;

  SqlUsageStore(const SqlUsageStore&) = delete;
  SqlUsageStore& operator=(const SqlUsageStore&) = delete;

  void add(const std::vector<ClientUsageDelta>& deltas) override;
  std::map<std::int64_t, UsageCounts> clientDays(std::string_view clientId, std::int64_t firstDay,
                                                 std::int64_t lastDay) override;
  std::map<std::int64_t, UsageCounts> organizationDays(std::string_view organizationId, std::int64_t firstDay,
                                                       std::int64_t lastDay) override;

 private:
  struct Connection;
  std::unique_ptr<Connection> connection_;
};

}  // namespace codepayload::auth
