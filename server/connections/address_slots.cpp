#include "server/connections/address_slots.h"

namespace codepayload::server {

bool AddressSlots::admit(Connection connection, std::string_view addressKey) {
  const std::lock_guard lock(mutex_);
  // An identity belongs to one live connection: a slot still kept under it
  // is left over from a connection that is gone.
  releaseLocked(connection);
  auto held = heldByAddress_.find(addressKey);
  if (held == heldByAddress_.end()) held = heldByAddress_.emplace(std::string(addressKey), 0).first;
  if (perAddress_ > 0 && held->second >= perAddress_) return false;
  ++held->second;
  addressByConnection_.emplace(connection, held->first);
  return true;
}

void AddressSlots::release(Connection connection) {
  const std::lock_guard lock(mutex_);
  releaseLocked(connection);
}

void AddressSlots::releaseLocked(Connection connection) {
  const auto slot = addressByConnection_.find(connection);
  if (slot == addressByConnection_.end()) return;
  const auto held = heldByAddress_.find(slot->second);
  if (--held->second == 0) heldByAddress_.erase(held);
  addressByConnection_.erase(slot);
}

int AddressSlots::held(std::string_view addressKey) const {
  const std::lock_guard lock(mutex_);
  const auto held = heldByAddress_.find(addressKey);
  return held == heldByAddress_.end() ? 0 : held->second;
}

std::size_t AddressSlots::connections() const {
  const std::lock_guard lock(mutex_);
  return addressByConnection_.size();
}

}  // namespace codepayload::server
