#include "auth/usage_counter.h"

#include <atomic>
#include <chrono>
#include <mutex>

#include "common/utc_time.h"

namespace codepayload::auth {

namespace {

constexpr std::int64_t kSecondsPerDay = 86400;
constexpr std::int64_t kSecondsPerMinute = 60;

// Floor division: -1 s is day -1, minute -1.
std::int64_t floorDivide(std::int64_t value, std::int64_t divisor) {
  const std::int64_t quotient = value / divisor;
  return (value % divisor != 0 && value < 0) ? quotient - 1 : quotient;
}

void keepLatest(std::optional<std::int64_t>& kept, std::optional<std::int64_t> other) {
  if (other && (!kept || *kept < *other)) kept = other;
}

// Adds one client's counted days and last use to another's.
void addUsage(std::map<std::int64_t, UsageCounts>& days, std::optional<std::int64_t>& lastUsedAt,
              const std::map<std::int64_t, UsageCounts>& moreDays, std::optional<std::int64_t> moreLastUsedAt) {
  for (const auto& [day, counts] : moreDays) days[day] += counts;
  keepLatest(lastUsedAt, moreLastUsedAt);
}

}  // namespace

UsageCounts& UsageCounts::operator+=(const UsageCounts& other) {
  tokensIssued += other.tokensIssued;
  codesAccepted += other.codesAccepted;
  codesRejected += other.codesRejected;
  return *this;
}

std::int64_t utcDayNumber(std::int64_t unixSeconds) { return floorDivide(unixSeconds, kSecondsPerDay); }

std::string utcDayText(std::int64_t dayNumber) {
  std::string text;
  common::appendUtcDate(text, std::chrono::sys_days{std::chrono::days{dayNumber}});
  return text;
}

std::int64_t truncateToMinute(std::int64_t unixSeconds) {
  return floorDivide(unixSeconds, kSecondsPerMinute) * kSecondsPerMinute;
}

UsageCounter::Stripe& UsageCounter::callingThreadsStripe() const {
  // Threads take the stripes in turn as they first count, and keep theirs.
  static std::atomic<std::size_t> nextStripe{0};
  thread_local const std::size_t stripe = nextStripe.fetch_add(1, std::memory_order_relaxed) % kStripes;
  return stripes_[stripe];
}

UsageCounter::Pending& UsageCounter::pendingOf(Stripe& stripe, std::string_view clientId,
                                               std::string_view organizationId) {
  auto found = stripe.clients.find(clientId);
  if (found == stripe.clients.end()) {
    found = stripe.clients.emplace(std::string(clientId), Pending{std::string(organizationId), {}, std::nullopt}).first;
  }
  return found->second;
}

void UsageCounter::add(std::string_view clientId, std::string_view organizationId, const UsageCounts& counts,
                       std::int64_t unixSeconds) {
  const std::int64_t day = utcDayNumber(unixSeconds);
  Stripe& stripe = callingThreadsStripe();
  std::lock_guard lock(stripe.mutex);
  Pending& pending = pendingOf(stripe, clientId, organizationId);
  pending.days[day] += counts;
  keepLatest(pending.lastUsedAt, truncateToMinute(unixSeconds));
}

void UsageCounter::tokenIssued(std::string_view clientId, std::string_view organizationId, std::int64_t unixSeconds) {
  add(clientId, organizationId, UsageCounts{1, 0, 0}, unixSeconds);
}

void UsageCounter::codesAnswered(std::string_view clientId, std::string_view organizationId, std::uint64_t accepted,
                                 std::uint64_t rejected, std::int64_t unixSeconds) {
  add(clientId, organizationId, UsageCounts{0, accepted, rejected}, unixSeconds);
}

std::vector<ClientUsageDelta> UsageCounter::take() {
  // A client counted by threads of several stripes becomes one delta.
  std::unordered_map<std::string, ClientUsageDelta, common::TransparentStringHash, std::equal_to<>> merged;
  for (Stripe& stripe : stripes_) {
    PendingByClient taken;
    {
      std::lock_guard lock(stripe.mutex);
      taken.swap(stripe.clients);
    }
    for (auto& [clientId, pending] : taken) {
      ClientUsageDelta& delta = merged[clientId];
      if (delta.clientId.empty()) {
        delta.clientId = clientId;
        delta.organizationId = std::move(pending.organizationId);
      }
      addUsage(delta.days, delta.lastUsedAt, pending.days, pending.lastUsedAt);
    }
  }
  std::vector<ClientUsageDelta> deltas;
  deltas.reserve(merged.size());
  for (auto& [clientId, delta] : merged) deltas.push_back(std::move(delta));
  return deltas;
}

void UsageCounter::putBack(std::vector<ClientUsageDelta> deltas) {
  Stripe& stripe = callingThreadsStripe();
  std::lock_guard lock(stripe.mutex);
  for (const ClientUsageDelta& delta : deltas) {
    Pending& pending = pendingOf(stripe, delta.clientId, delta.organizationId);
    addUsage(pending.days, pending.lastUsedAt, delta.days, delta.lastUsedAt);
  }
}

std::map<std::int64_t, UsageCounts> UsageCounter::pendingOfClient(std::string_view clientId) const {
  std::map<std::int64_t, UsageCounts> days;
  for (const Stripe& stripe : stripes_) {
    std::lock_guard lock(stripe.mutex);
    const auto found = stripe.clients.find(clientId);
    if (found == stripe.clients.end()) continue;
    for (const auto& [day, counts] : found->second.days) days[day] += counts;
  }
  return days;
}

std::map<std::int64_t, UsageCounts> UsageCounter::pendingOfOrganization(std::string_view organizationId) const {
  std::map<std::int64_t, UsageCounts> days;
  for (const Stripe& stripe : stripes_) {
    std::lock_guard lock(stripe.mutex);
    for (const auto& [clientId, pending] : stripe.clients) {
      if (pending.organizationId != organizationId) continue;
      for (const auto& [day, counts] : pending.days) days[day] += counts;
    }
  }
  return days;
}

std::optional<std::int64_t> UsageCounter::pendingLastUse(std::string_view clientId) const {
  std::optional<std::int64_t> latest;
  for (const Stripe& stripe : stripes_) {
    std::lock_guard lock(stripe.mutex);
    const auto found = stripe.clients.find(clientId);
    if (found != stripe.clients.end()) keepLatest(latest, found->second.lastUsedAt);
  }
  return latest;
}

}  // namespace codepayload::auth
