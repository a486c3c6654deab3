#include "auth/auth_throttle.h"

#include <algorithm>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/adaptive_mutex.h"
#include "common/address_key.h"
#include "common/string_hash.h"

namespace codepayload::auth {

namespace {

constexpr std::size_t kShardCount = 16;

struct Window {
  std::int64_t start = 0;
  std::uint32_t count = 0;
};

}  // namespace

// Fixed windows per key: a key's window opens with its first counted event and
// lasts `windowSeconds`.
struct AuthThrottle::Table {
  struct Shard {
    common::AdaptiveMutex mutex;  // every token request takes its address's
    std::unordered_map<std::string, Window, common::TransparentStringHash, std::equal_to<>> windows;
  };

  Table(std::int64_t windowLength, std::size_t maxKeys)
      : windowSeconds(windowLength), shardCapacity(std::max<std::size_t>(1, maxKeys / kShardCount)) {}

  Shard& shardFor(std::string_view key) { return shards[common::TransparentStringHash{}(key) % kShardCount]; }

  // Seconds until the key's window closes if it already holds `limit` events, else 0.
  std::int64_t retryAfter(std::string_view key, std::uint32_t limit, std::int64_t now) {
    Shard& shard = shardFor(key);
    std::lock_guard lock(shard.mutex);
    const auto found = shard.windows.find(key);
    if (found == shard.windows.end()) return 0;
    return blockedFor(found->second, limit, now);
  }

  // Counts one event unless the key is at `limit`; returns retryAfter() as it
  // was before counting (0 = counted).
  std::int64_t count(std::string_view key, std::uint32_t limit, std::int64_t now) {
    Shard& shard = shardFor(key);
    std::lock_guard lock(shard.mutex);
    auto found = shard.windows.find(key);
    if (found == shard.windows.end()) {
      if (shard.windows.size() >= shardCapacity) evict(shard, now);
      found = shard.windows.emplace(std::string(key), Window{now, 0}).first;
    }
    Window& window = found->second;
    if (now >= window.start + windowSeconds) window = Window{now, 0};
    if (const std::int64_t wait = blockedFor(window, limit, now); wait > 0) return wait;
    ++window.count;
    return 0;
  }

  std::int64_t blockedFor(const Window& window, std::uint32_t limit, std::int64_t now) const {
    const std::int64_t end = window.start + windowSeconds;
    if (now >= end || window.count < limit) return 0;
    return end - now;
  }

  void evict(Shard& shard, std::int64_t now) {
    std::erase_if(shard.windows, [&](const auto& item) { return now >= item.second.start + windowSeconds; });
    if (shard.windows.size() >= shardCapacity) shard.windows.erase(shard.windows.begin());
  }

  std::int64_t windowSeconds;
  std::size_t shardCapacity;
  Shard shards[kShardCount];
};

AuthThrottle::AuthThrottle(ThrottleSettings settings, UnixClock clock)
    : settings_(settings),
      clock_(std::move(clock)),
      addressFailures_(std::make_unique<Table>(settings.windowSeconds, settings.maxTrackedKeys)),
      clientFailures_(std::make_unique<Table>(settings.windowSeconds, settings.maxTrackedKeys)),
      clientIssuance_(std::make_unique<Table>(settings.windowSeconds, settings.maxTrackedKeys)) {}

AuthThrottle::~AuthThrottle() = default;

std::int64_t AuthThrottle::addressRetryAfter(std::string_view address) const {
  return addressFailures_->retryAfter(common::addressKey(address), settings_.failuresPerAddress, clock_());
}

std::int64_t AuthThrottle::clientFailureRetryAfter(std::string_view clientId) const {
  return clientFailures_->retryAfter(clientId, settings_.failuresPerClient, clock_());
}

void AuthThrottle::recordFailure(std::string_view address, std::string_view clientId) {
  const std::int64_t now = clock_();
  // Counting stops at the limit: the window then simply runs out.
  addressFailures_->count(common::addressKey(address), settings_.failuresPerAddress, now);
  if (!clientId.empty()) clientFailures_->count(clientId, settings_.failuresPerClient, now);
}

std::int64_t AuthThrottle::acquireIssuance(std::string_view clientId) {
  return clientIssuance_->count(clientId, settings_.tokensPerClient, clock_());
}

}  // namespace codepayload::auth
