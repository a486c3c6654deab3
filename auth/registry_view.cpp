#include "auth/registry_view.h"

#include <functional>
#include <string>
#include <unordered_map>

#include "common/string_hash.h"

namespace codepayload::auth {

struct RegistryView::Snapshot {
  std::uint64_t version = 0;
  std::unordered_map<std::string, ClientStatus, common::TransparentStringHash, std::equal_to<>> clients;
};

RegistryView::RegistryView(ClientRegistry& registry) : registry_(registry) { load(registry_.version()); }

RegistryView::~RegistryView() = default;

void RegistryView::load(std::uint64_t version) {
  // The version is read before the rows: a change landing in between makes the
  // next refresh load again rather than be missed.
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->version = version;
  for (ClientStatus& status : registry_.listClientStatuses()) {
    std::string id = status.clientId;
    snapshot->clients.emplace(std::move(id), std::move(status));
  }
  snapshot_.store(std::move(snapshot));
}

bool RegistryView::refreshIfChanged() {
  const std::uint64_t version = registry_.version();
  if (snapshot_.load()->version == version) return false;
  load(version);
  return true;
}

ClientStanding RegistryView::standing(std::string_view clientId, std::string_view organisationId,
                                      std::int64_t issuedAt) const {
  const std::shared_ptr<const Snapshot> snapshot = snapshot_.load();
  const auto found = snapshot->clients.find(clientId);
  if (found == snapshot->clients.end()) return ClientStanding::Unknown;
  const ClientStatus& status = found->second;
  if (status.state != ClientState::Active || status.organisationId != organisationId ||
      issuedAt < status.tokensNotBefore) {
    return ClientStanding::Revoked;
  }
  return status.organisationCoversApiClients ? ClientStanding::Active : ClientStanding::Lapsed;
}

}  // namespace codepayload::auth
