#include "server/large_request_slots.h"

#include <utility>

namespace codepayload::server {

LargeRequestSlots::Slot::Slot(Slot&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)), clientId_(std::move(other.clientId_)) {}

LargeRequestSlots::Slot& LargeRequestSlots::Slot::operator=(Slot&& other) noexcept {
  if (this != &other) {
    giveBack();
    owner_ = std::exchange(other.owner_, nullptr);
    clientId_ = std::move(other.clientId_);
  }
  return *this;
}

LargeRequestSlots::Slot::~Slot() { giveBack(); }

void LargeRequestSlots::Slot::giveBack() {
  if (owner_ != nullptr) std::exchange(owner_, nullptr)->release(clientId_);
}

LargeRequestSlots::Slot LargeRequestSlots::tryTake(std::string_view clientId) {
  std::lock_guard lock(mutex_);
  auto it = heldByClient_.find(clientId);
  if (it == heldByClient_.end()) {
    it = heldByClient_.emplace(std::string(clientId), 0).first;
  } else if (perClient_ > 0 && it->second >= perClient_) {
    return Slot();
  }
  ++it->second;
  return Slot(this, std::string(clientId));
}

void LargeRequestSlots::release(const std::string& clientId) {
  std::lock_guard lock(mutex_);
  const auto it = heldByClient_.find(clientId);
  if (it == heldByClient_.end()) return;
  if (--it->second <= 0) heldByClient_.erase(it);
}

int LargeRequestSlots::held(std::string_view clientId) const {
  std::lock_guard lock(mutex_);
  const auto it = heldByClient_.find(clientId);
  return it == heldByClient_.end() ? 0 : it->second;
}

std::size_t LargeRequestSlots::clients() const {
  std::lock_guard lock(mutex_);
  return heldByClient_.size();
}

}  // namespace codepayload::server
