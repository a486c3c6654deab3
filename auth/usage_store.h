// The usage counts in the registry database (db/registry/0004_client_usage.sql):
// adds what the request path counted (auth/usage_counter.h) and reads the
// days back. Its own connection to registry.db, so a write never waits for, or
// holds, the client registry's lock that the token endpoint takes. Portable
// SQL (D-D12); thread-safe (one connection behind a mutex).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "auth/usage_counter.h"

namespace codepayload::auth {

class SqliteUsageStore {
 public:
  // Opens `databaseFile`, a registry already migrated (the client registry
  // applies the migrations). Throws RegistryError(Storage).
  explicit SqliteUsageStore(const std::filesystem::path& databaseFile);
  ~SqliteUsageStore();

  SqliteUsageStore(const SqliteUsageStore&) = delete;
  SqliteUsageStore& operator=(const SqliteUsageStore&) = delete;

  // In one transaction: adds each delta's counts to its (client, day) row
  // (inserting the row when absent) and moves the client's last_used_at
  // forward (never back). All or nothing; throws RegistryError(Storage).
  void add(const std::vector<ClientUsageDelta>& deltas);

  // Stored counts by day number, for days firstDay..lastDay (inclusive): of one
  // client, and summed over one organization's clients. Days without a row are
  // absent. Throws RegistryError(Storage).
  std::map<std::int64_t, UsageCounts> clientDays(std::string_view clientId, std::int64_t firstDay,
                                                 std::int64_t lastDay);
  std::map<std::int64_t, UsageCounts> organizationDays(std::string_view organizationId, std::int64_t firstDay,
                                                       std::int64_t lastDay);

 private:
  struct Connection;
  std::unique_ptr<Connection> connection_;
};

}  // namespace codepayload::auth
