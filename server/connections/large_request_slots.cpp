#include "server/connections/large_request_slots.h"

#include <utility>

namespace codepayload::server {

namespace {

using Counts = std::unordered_map<std::string, int, common::TransparentStringHash, std::equal_to<>>;

int count(const Counts& counts, std::string_view key) {
  const auto it = counts.find(key);
  return it == counts.end() ? 0 : it->second;
}

bool full(int held, int limit) { return limit > 0 && held >= limit; }

void decrement(Counts& counts, const std::string& key) {
  const auto it = counts.find(key);
  if (it != counts.end() && --it->second <= 0) counts.erase(it);
}

}  // namespace

LargeRequestSlots::Slot::Slot(Slot&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)),
      clientId_(std::move(other.clientId_)),
      organizationId_(std::move(other.organizationId_)),
      refusal_(std::exchange(other.refusal_, std::nullopt)) {}

LargeRequestSlots::Slot& LargeRequestSlots::Slot::operator=(Slot&& other) noexcept {
  if (this != &other) {
    giveBack();
    owner_ = std::exchange(other.owner_, nullptr);
    clientId_ = std::move(other.clientId_);
    organizationId_ = std::move(other.organizationId_);
    refusal_ = std::exchange(other.refusal_, std::nullopt);
  }
  return *this;
}

LargeRequestSlots::Slot::~Slot() { giveBack(); }

void LargeRequestSlots::Slot::giveBack() {
  if (owner_ != nullptr) std::exchange(owner_, nullptr)->release(clientId_, organizationId_);
}

LargeRequestSlots::Slot LargeRequestSlots::tryTake(std::string_view clientId, std::string_view organizationId) {
  const std::lock_guard lock(mutex_);
  if (full(count(heldByClient_, clientId), limits_.perClient)) return Slot(Refusal::Client);
  if (full(count(heldByOrganization_, organizationId), limits_.perOrganization)) return Slot(Refusal::Organization);
  if (full(held_, limits_.perServer)) return Slot(Refusal::Server);
  ++heldByClient_[std::string(clientId)];
  ++heldByOrganization_[std::string(organizationId)];
  ++held_;
  return Slot(this, std::string(clientId), std::string(organizationId));
}

void LargeRequestSlots::release(const std::string& clientId, const std::string& organizationId) {
  const std::lock_guard lock(mutex_);
  decrement(heldByClient_, clientId);
  decrement(heldByOrganization_, organizationId);
  --held_;
}

int LargeRequestSlots::heldByClient(std::string_view clientId) const {
  const std::lock_guard lock(mutex_);
  return count(heldByClient_, clientId);
}

int LargeRequestSlots::heldByOrganization(std::string_view organizationId) const {
  const std::lock_guard lock(mutex_);
  return count(heldByOrganization_, organizationId);
}

int LargeRequestSlots::held() const {
  const std::lock_guard lock(mutex_);
  return held_;
}

std::size_t LargeRequestSlots::clients() const {
  const std::lock_guard lock(mutex_);
  return heldByClient_.size();
}

int LargeRequestSlots::limit(Refusal refusal) const {
  switch (refusal) {
    case Refusal::Client: return limits_.perClient;
    case Refusal::Organization: return limits_.perOrganization;
    case Refusal::Server: return limits_.perServer;
  }
  return 0;
}

}  // namespace codepayload::server
