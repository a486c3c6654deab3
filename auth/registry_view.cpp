#include "auth/registry_view.h"

#include <functional>
#include <string>
#include <unordered_map>

#include "common/string_hash.h"

namespace codepayload::auth {

namespace {

// Compared against when the id is unknown, so a miss and a wrong secret do the same work.
constexpr SecretDigest kNoDigest{};

}  // namespace

struct RegistryView::Snapshot {
  std::uint64_t version = 0;
  std::unordered_map<std::string, ClientAuthRecord, common::TransparentStringHash, std::equal_to<>> clients;
};

RegistryView::RegistryView(ClientRegistry& registry, UnixClock clock)
    : registry_(registry), clock_(std::move(clock)), checkedAt_(clock_()) {
  load(registry_.version());
}

RegistryView::~RegistryView() = default;

void RegistryView::load(std::uint64_t version) {
  // The version is read before the rows: a change landing in between makes the
  // next refresh load again rather than be missed.
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->version = version;
  for (ClientAuthRecord& record : registry_.listClientsForAuthentication()) {
    std::string id = record.clientId;
    snapshot->clients.emplace(std::move(id), std::move(record));
  }
  snapshot_.replace(std::move(snapshot));
}

bool RegistryView::refreshIfChanged() {
  const std::lock_guard lock(refreshMutex_);
  // Dated before the version is read: a change committed after this second's
  // check began may be missing, one committed before it is not.
  const std::int64_t checkStarted = clock_();
  const std::uint64_t version = registry_.version();
  const bool changed = snapshot_.current()->version != version;
  if (changed) load(version);
  checkedAt_.store(checkStarted, std::memory_order_release);
  return changed;
}

ClientStanding RegistryView::standing(std::string_view clientId, std::string_view organizationId,
                                      std::int64_t issuedAt) const {
  const std::shared_ptr<const Snapshot> snapshot = snapshot_.current();
  const auto found = snapshot->clients.find(clientId);
  if (found == snapshot->clients.end()) return ClientStanding::Unknown;
  const ClientAuthRecord& client = found->second;
  if (client.state != ClientState::Active || client.organizationId != organizationId ||
      issuedAt < client.tokensNotBefore) {
    return ClientStanding::Revoked;
  }
  return client.organizationCoversApiClients ? ClientStanding::Active : ClientStanding::Lapsed;
}

ViewAuthentication RegistryView::authenticated(std::string_view clientId, const SecretDigest& presentedDigest) const {
  const std::int64_t now = clock_();
  if (now != checkedAt_.load(std::memory_order_acquire)) return {nullptr, now};
  std::shared_ptr<const Snapshot> snapshot = snapshot_.current();
  const auto found = snapshot->clients.find(clientId);
  const ClientAuthRecord* client = found == snapshot->clients.end() ? nullptr : &found->second;
  const bool secretMatches = SecretHasher::equal(presentedDigest, client ? client->secretDigest : kNoDigest);
  if (client == nullptr || !secretMatches || client->state != ClientState::Active) return {nullptr, now};
  // Shares the snapshot's lifetime: the record stays valid after a reload.
  return {std::shared_ptr<const ClientAuthRecord>(std::move(snapshot), client), now};
}

}  // namespace codepayload::auth
