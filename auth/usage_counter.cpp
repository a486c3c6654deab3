#include "auth/usage_counter.h"

#include <chrono>
#include <cstdio>

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

}  // namespace

UsageCounts& UsageCounts::operator+=(const UsageCounts& other) {
  tokensIssued += other.tokensIssued;
  codesAccepted += other.codesAccepted;
  codesRejected += other.codesRejected;
  return *this;
}

std::int64_t utcDayNumber(std::int64_t unixSeconds) { return floorDivide(unixSeconds, kSecondsPerDay); }

std::string utcDayText(std::int64_t dayNumber) {
  const std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{dayNumber}}};
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()));
  return text;
}

std::int64_t truncateToMinute(std::int64_t unixSeconds) {
  return floorDivide(unixSeconds, kSecondsPerMinute) * kSecondsPerMinute;
}

UsageCounter::Shard& UsageCounter::shardOf(std::string_view clientId) const {
  return shards_[common::TransparentStringHash{}(clientId) % kShards];
}

void UsageCounter::add(std::string_view clientId, std::string_view organisationId, const UsageCounts& counts,
                       std::int64_t unixSeconds) {
  const std::int64_t day = utcDayNumber(unixSeconds);
  const std::int64_t minute = truncateToMinute(unixSeconds);
  Shard& shard = shardOf(clientId);
  std::lock_guard lock(shard.mutex);
  auto found = shard.clients.find(clientId);
  if (found == shard.clients.end()) {
    found = shard.clients.emplace(std::string(clientId), Pending{std::string(organisationId), {}, std::nullopt}).first;
  }
  Pending& pending = found->second;
  pending.days[day] += counts;
  keepLatest(pending.lastUsedAt, minute);
}

void UsageCounter::tokenIssued(std::string_view clientId, std::string_view organisationId, std::int64_t unixSeconds) {
  add(clientId, organisationId, UsageCounts{1, 0, 0}, unixSeconds);
}

void UsageCounter::codesAnswered(std::string_view clientId, std::string_view organisationId, std::uint64_t accepted,
                                 std::uint64_t rejected, std::int64_t unixSeconds) {
  add(clientId, organisationId, UsageCounts{0, accepted, rejected}, unixSeconds);
}

std::vector<ClientUsageDelta> UsageCounter::take() {
  std::vector<ClientUsageDelta> deltas;
  for (Shard& shard : shards_) {
    std::unordered_map<std::string, Pending, common::TransparentStringHash, std::equal_to<>> taken;
    {
      std::lock_guard lock(shard.mutex);
      taken.swap(shard.clients);
    }
    for (auto& [clientId, pending] : taken) {
      deltas.push_back(
          ClientUsageDelta{clientId, std::move(pending.organisationId), std::move(pending.days), pending.lastUsedAt});
    }
  }
  return deltas;
}

void UsageCounter::putBack(std::vector<ClientUsageDelta> deltas) {
  for (ClientUsageDelta& delta : deltas) {
    Shard& shard = shardOf(delta.clientId);
    std::lock_guard lock(shard.mutex);
    auto found = shard.clients.find(delta.clientId);
    if (found == shard.clients.end()) {
      shard.clients.emplace(std::move(delta.clientId),
                            Pending{std::move(delta.organisationId), std::move(delta.days), delta.lastUsedAt});
      continue;
    }
    Pending& pending = found->second;
    for (const auto& [day, counts] : delta.days) pending.days[day] += counts;
    keepLatest(pending.lastUsedAt, delta.lastUsedAt);
  }
}

std::map<std::int64_t, UsageCounts> UsageCounter::pendingOfClient(std::string_view clientId) const {
  const Shard& shard = shardOf(clientId);
  std::lock_guard lock(shard.mutex);
  const auto found = shard.clients.find(clientId);
  if (found == shard.clients.end()) return {};
  return found->second.days;
}

std::map<std::int64_t, UsageCounts> UsageCounter::pendingOfOrganisation(std::string_view organisationId) const {
  std::map<std::int64_t, UsageCounts> days;
  for (const Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    for (const auto& [clientId, pending] : shard.clients) {
      if (pending.organisationId != organisationId) continue;
      for (const auto& [day, counts] : pending.days) days[day] += counts;
    }
  }
  return days;
}

std::optional<std::int64_t> UsageCounter::pendingLastUse(std::string_view clientId) const {
  const Shard& shard = shardOf(clientId);
  std::lock_guard lock(shard.mutex);
  const auto found = shard.clients.find(clientId);
  if (found == shard.clients.end()) return std::nullopt;
  return found->second.lastUsedAt;
}

}  // namespace codepayload::auth
