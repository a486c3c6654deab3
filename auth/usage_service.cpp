#include "auth/usage_service.h"

#include <stdexcept>

namespace codepayload::auth {

UsageService::UsageService(std::unique_ptr<UsageStore> store, std::chrono::milliseconds flushInterval, Log log,
                           UnixClock clock)
    : store_(std::move(store)), flushInterval_(flushInterval), log_(std::move(log)), clock_(std::move(clock)) {
  writer_ = std::thread([this] { writeLoop(); });
}

UsageService::~UsageService() { stop(); }

void UsageService::tokenIssued(std::string_view clientId, std::string_view organizationId) {
  counter_.tokenIssued(clientId, organizationId, clock_());
}

void UsageService::codesAnswered(std::string_view clientId, std::string_view organizationId, std::uint64_t accepted,
                                 std::uint64_t rejected) {
  counter_.codesAnswered(clientId, organizationId, accepted, rejected, clock_());
}

bool UsageService::flush() {
  std::lock_guard lock(flushMutex_);
  std::vector<ClientUsageDelta> deltas = counter_.take();
  if (deltas.empty()) return true;
  try {
    store_->add(deltas);
  } catch (const std::exception& error) {
    counter_.putBack(std::move(deltas));
    ++flushCounts_.failures;
    if (!failing_ && log_) {
      log_("could not write API client usage to the registry (kept in memory, written again every " +
           std::to_string(flushInterval_.count()) + " ms): " + error.what());
    }
    failing_ = true;
    return false;
  }
  ++flushCounts_.writes;
  if (failing_ && log_) log_("API client usage is written to the registry again");
  failing_ = false;
  return true;
}

void UsageService::writeLoop() {
  std::unique_lock lock(stopMutex_);
  while (!stopping_) {
    stopRequested_.wait_for(lock, flushInterval_, [this] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    flush();
    lock.lock();
  }
}

void UsageService::stop() {
  {
    std::lock_guard lock(stopMutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  stopRequested_.notify_all();
  if (writer_.joinable()) writer_.join();
  if (!flush() && log_) log_("stopping with API client usage that could not be written; it is lost");
}

std::vector<DailyUsage> UsageService::usage(
    int days,
    const std::function<std::map<std::int64_t, UsageCounts>(std::int64_t firstDay, std::int64_t lastDay)>& stored,
    const std::map<std::int64_t, UsageCounts>& pending) {
  const std::int64_t lastDay = utcDayNumber(clock_());
  const std::int64_t firstDay = lastDay - days + 1;
  std::map<std::int64_t, UsageCounts> counts = stored(firstDay, lastDay);
  for (const auto& [day, dayCounts] : pending) {
    if (day >= firstDay && day <= lastDay) counts[day] += dayCounts;
  }
  std::vector<DailyUsage> result;
  result.reserve(static_cast<std::size_t>(days));
  for (std::int64_t day = firstDay; day <= lastDay; ++day) {
    const auto found = counts.find(day);
    const UsageCounts dayCounts = found == counts.end() ? UsageCounts{} : found->second;
    result.push_back(
        DailyUsage{utcDayText(day), dayCounts.tokensIssued, dayCounts.codesAccepted, dayCounts.codesRejected});
  }
  return result;
}

namespace {

void checkDays(int days) {
  if (days < 1 || days > UsageService::kMaxDays) {
    throw std::invalid_argument("usage is read for 1 to " + std::to_string(UsageService::kMaxDays) + " days, not " +
                                std::to_string(days));
  }
}

}  // namespace

std::vector<DailyUsage> UsageService::clientUsage(std::string_view clientId, int days) {
  checkDays(days);
  std::lock_guard lock(flushMutex_);
  return usage(
      days,
      [&](std::int64_t firstDay, std::int64_t lastDay) { return store_->clientDays(clientId, firstDay, lastDay); },
      counter_.pendingOfClient(clientId));
}

std::vector<DailyUsage> UsageService::organizationUsage(std::string_view organizationId, int days) {
  checkDays(days);
  std::lock_guard lock(flushMutex_);
  return usage(
      days,
      [&](std::int64_t firstDay, std::int64_t lastDay) {
        return store_->organizationDays(organizationId, firstDay, lastDay);
      },
      counter_.pendingOfOrganization(organizationId));
}

std::optional<std::int64_t> UsageService::lastUsedAt(const ClientRecord& client) const {
  const std::optional<std::int64_t> pending = counter_.pendingLastUse(client.id);
  if (pending && (!client.lastUsedAt || *client.lastUsedAt < *pending)) return pending;
  return client.lastUsedAt;
}

UsageService::FlushCounts UsageService::flushCounts() const {
  std::lock_guard lock(flushMutex_);
  return flushCounts_;
}

}  // namespace codepayload::auth
