// The usage counts the registry keeps: adds what the request path counted
// (auth/usage_counter.h) and reads the days back. SqlUsageStore
// (auth/sql_usage_store.h) implements it; app/registry.h opens one.
// Implementations are thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "auth/usage_counter.h"

namespace codepayload::auth {

class UsageStore {
 public:
  virtual ~UsageStore() = default;

  // In one transaction: adds each delta's counts to its (client, day) row
  // (inserting the row when absent) and moves the client's last_used_at
  // forward (never back). All or nothing; throws RegistryError(Storage).
  virtual void add(const std::vector<ClientUsageDelta>& deltas) = 0;

  // Stored counts by day number, for days firstDay..lastDay (inclusive): of one
  // client, and summed over one organization's clients. Days without a row are
  // absent. Throws RegistryError(Storage).
  virtual std::map<std::int64_t, UsageCounts> clientDays(std::string_view clientId, std::int64_t firstDay,
                                                         std::int64_t lastDay) = 0;
  virtual std::map<std::int64_t, UsageCounts> organizationDays(std::string_view organizationId, std::int64_t firstDay,
                                                               std::int64_t lastDay) = 0;
};

}  // namespace codepayload::auth
