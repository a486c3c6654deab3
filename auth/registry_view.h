// An in-memory view of every client that is not deleted (ClientAuthRecord:
// its state, organization, standing, scopes and secret digest), so the bearer
// path never touches the database and the token endpoint only does to refuse.
// refreshIfChanged() reloads the whole view when ClientRegistry::version()
// moved; AuthService calls it from a background thread every 250 ms, so a
// block, delete or lapsed subscription is seen within a second; a block and
// unblock between two refreshes is still seen, through the client's
// tokensNotBefore. Lookups read an immutable snapshot (common/published.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>

#include "auth/client_registry.h"
#include "auth/unix_clock.h"
#include "common/published.h"

namespace codepayload::auth {

enum class ClientStanding {
  Active,   // client active, and owned by the organization named in the token
  Revoked,  // client blocked, deleted, or owned by another organization, or the
            // token issued before the client's tokensNotBefore (an earlier block)
  Unknown,  // no such client in the view (yet: it may have been created since the last refresh)
  Lapsed,   // client active, but its organization's plan/subscription no longer covers API clients
};

// What RegistryView::authenticated vouches for.
struct ViewAuthentication {
  // The client's record; nullptr when the view cannot vouch (ask the registry).
  std::shared_ptr<const ClientAuthRecord> client;
  // The second the view was checked in, which is also the current second: a
  // token issued on this answer is dated with it (D-T6).
  std::int64_t checkedAt = 0;
};

class RegistryView {
 public:
  // Loads the view once (throws RegistryError when the registry fails).
  // `registry` must outlive the view; `clock` dates its checks.
  RegistryView(ClientRegistry& registry, UnixClock clock);
  ~RegistryView();

  RegistryView(const RegistryView&) = delete;
  RegistryView& operator=(const RegistryView&) = delete;

  // Reloads when the registry version changed. Returns true when it reloaded.
  // Throws RegistryError when the registry fails (the old view stays for
  // standing(); authenticated() stops vouching). Calls are serialised: the
  // view never goes back to an older load.
  bool refreshIfChanged();

  // The standing of a token of `clientId` for `organizationId` issued at
  // `issuedAt` (its iat, Unix seconds).
  ClientStanding standing(std::string_view clientId, std::string_view organizationId, std::int64_t issuedAt) const;

  // The record of `clientId` when the client is active and `presentedDigest`
  // is its secret's digest (compared in constant time), and the view's last
  // successful check began in the current second of the clock; no record
  // otherwise: an unknown id, a wrong secret, a blocked client, a check not
  // yet made this second. The token endpoint then asks the registry, whatever
  // the reason, so every refusal costs the same (D-S5) and a client created
  // since the last refresh is still found. A token dated `checkedAt` is dated
  // before the tokensNotBefore of any block the view has not seen (D-T6).
  ViewAuthentication authenticated(std::string_view clientId, const SecretDigest& presentedDigest) const;

 private:
  struct Snapshot;
  void load(std::uint64_t version);

  ClientRegistry& registry_;
  UnixClock clock_;
  std::mutex refreshMutex_;
  common::Published<Snapshot> snapshot_;
  // The second of the last successful check, read before the check began.
  std::atomic<std::int64_t> checkedAt_;
};

}  // namespace codepayload::auth
