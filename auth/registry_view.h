// An in-memory view of every client's state and its organisation's standing,
// so the bearer path never touches the database. refreshIfChanged() reloads
// the whole view when ClientRegistry::version() moved; AuthService calls it
// from a background thread every 250 ms, so a block, delete or lapsed
// subscription is seen within a second; a block and unblock between two
// refreshes is still seen, through the client's tokensNotBefore. Lookups are lock-free reads of an
// immutable snapshot.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>

#include "auth/client_registry.h"

namespace codepayload::auth {

enum class ClientStanding {
  Active,   // client active, and owned by the organisation named in the token
  Revoked,  // client blocked, deleted, or owned by another organisation, or the
            // token issued before the client's tokensNotBefore (an earlier block)
  Unknown,  // no such client in the view (yet: it may have been created since the last refresh)
  Lapsed,   // client active, but its organisation's plan/subscription no longer covers API clients
};

class RegistryView {
 public:
  // Loads the view once (throws RegistryError when the registry fails).
  // `registry` must outlive the view.
  explicit RegistryView(ClientRegistry& registry);
  ~RegistryView();

  RegistryView(const RegistryView&) = delete;
  RegistryView& operator=(const RegistryView&) = delete;

  // Reloads when the registry version changed. Returns true when it reloaded.
  // Throws RegistryError when the registry fails (the old view stays).
  bool refreshIfChanged();

  // The standing of a token of `clientId` for `organisationId` issued at
  // `issuedAt` (its iat, Unix seconds).
  ClientStanding standing(std::string_view clientId, std::string_view organisationId, std::int64_t issuedAt) const;

 private:
  struct Snapshot;
  void load(std::uint64_t version);

  ClientRegistry& registry_;
  std::atomic<std::shared_ptr<const Snapshot>> snapshot_;
};

}  // namespace codepayload::auth
