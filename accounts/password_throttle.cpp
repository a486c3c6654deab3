#include "accounts/password_throttle.h"

#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/adaptive_mutex.h"
#include "common/address_key.h"

namespace codepayload::accounts {

namespace {

constexpr std::size_t kShardCount = 16;

// A table's key: the first 16 bytes of SHA-256 of the text counted. A typed
// email of any length takes the same room, and a collision, which would mix
// two keys' counts, needs about 2^64 keys.
using Key = std::array<unsigned char, 16>;

struct KeyHash {
  std::size_t operator()(const Key& key) const noexcept {
    // The key is a digest already: its first bytes are as good as any hash.
    std::size_t value = 0;
    for (std::size_t i = 0; i < sizeof value; ++i) value = (value << 8) | key[i];
    return value;
  }
};

Key keyOf(std::string_view first, std::string_view second = {}) {
  // The first part's length goes first, so ("ab", "c") and ("a", "bc") differ.
  std::string text(sizeof(std::uint64_t), '\0');
  const std::uint64_t firstLength = first.size();
  std::memcpy(text.data(), &firstLength, sizeof firstLength);
  text.append(first).append(second);
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  Key key;
  std::memcpy(key.data(), digest, key.size());
  return key;
}

struct Window {
  std::int64_t start = 0;
  std::uint32_t failures = 0;
  std::int64_t lastFailureAt = 0;
  // Whether a refusal was reported since the last failure.
  bool refusalReported = false;
};

}  // namespace

class PasswordThrottle::Table {
 public:
  Table(std::int64_t windowSeconds, std::size_t maxKeys)
      : windowSeconds_(windowSeconds), shardCapacity_(std::max<std::size_t>(1, maxKeys / kShardCount)) {}

  // Runs `inspect` on the key's window, or on nullptr when the key has none
  // open at `now`, under the shard's lock; returns what it returns.
  template <typename Inspect>
  auto with(const Key& key, std::int64_t now, Inspect&& inspect) {
    Shard& shard = shardFor(key);
    std::lock_guard lock(shard.mutex);
    const auto found = shard.windows.find(key);
    Window* window = found == shard.windows.end() || ended(found->second, now) ? nullptr : &found->second;
    return inspect(window);
  }

  // Counts one failure at `now`; returns the key's failures in its window.
  std::uint32_t countFailure(const Key& key, std::int64_t now) {
    Shard& shard = shardFor(key);
    std::lock_guard lock(shard.mutex);
    auto found = shard.windows.find(key);
    if (found == shard.windows.end()) {
      if (shard.windows.size() >= shardCapacity_) makeRoom(shard, now);
      found = shard.windows.emplace(key, Window{now, 0, now, false}).first;
    }
    Window& window = found->second;
    if (ended(window, now)) window = Window{now, 0, now, false};
    if (window.failures < std::numeric_limits<std::uint32_t>::max()) ++window.failures;
    window.lastFailureAt = now;
    window.refusalReported = false;
    return window.failures;
  }

  // Removes the key; returns its failures when its window was open at `now`.
  std::uint32_t take(const Key& key, std::int64_t now) {
    Shard& shard = shardFor(key);
    std::lock_guard lock(shard.mutex);
    const auto found = shard.windows.find(key);
    if (found == shard.windows.end()) return 0;
    const std::uint32_t failures = ended(found->second, now) ? 0 : found->second.failures;
    shard.windows.erase(found);
    return failures;
  }

  // Takes `failures` out of the key's open window.
  void discount(const Key& key, std::uint32_t failures, std::int64_t now) {
    with(key, now, [failures](Window* window) {
      if (window != nullptr) window->failures -= std::min(failures, window->failures);
    });
  }

  std::size_t size() {
    std::size_t total = 0;
    for (Shard& shard : shards_) {
      std::lock_guard lock(shard.mutex);
      total += shard.windows.size();
    }
    return total;
  }

  std::int64_t endOf(const Window& window) const { return window.start + windowSeconds_; }

 private:
  struct Shard {
    common::AdaptiveMutex mutex;
    std::unordered_map<Key, Window, KeyHash> windows;
  };

  Shard& shardFor(const Key& key) { return shards_[key[15] % kShardCount]; }

  bool ended(const Window& window, std::int64_t now) const { return now >= endOf(window); }

  // Windows that ended go first; if none did, the one that ends soonest (the
  // oldest count). Each new key comes with a failed check, an Argon2 run, so
  // a flood that fills a table is bounded by the hasher's rate.
  void makeRoom(Shard& shard, std::int64_t now) {
    std::erase_if(shard.windows, [&](const auto& item) { return ended(item.second, now); });
    if (shard.windows.size() < shardCapacity_) return;
    const auto oldest = std::min_element(shard.windows.begin(), shard.windows.end(),
                                         [](const auto& a, const auto& b) { return a.second.start < b.second.start; });
    shard.windows.erase(oldest);
  }

  std::int64_t windowSeconds_;
  std::size_t shardCapacity_;
  std::array<Shard, kShardCount> shards_;
};

PasswordThrottle::PasswordThrottle(PasswordThrottleSettings settings, auth::UnixClock clock)
    : settings_(settings),
      clock_(std::move(clock)),
      addresses_(std::make_unique<Table>(settings.windowSeconds, settings.maxTrackedKeys)),
      accountsFromAddresses_(std::make_unique<Table>(settings.windowSeconds, settings.maxTrackedKeys)),
      accounts_(std::make_unique<Table>(settings.windowSeconds, settings.maxTrackedKeys)) {}

PasswordThrottle::~PasswordThrottle() = default;

ThrottleVerdict PasswordThrottle::admit(std::string_view accountKey, std::string_view address) {
  const std::int64_t now = clock_();
  const std::string addressKey = common::addressKey(address);
  // A lock reached: refused until its window ends.
  const auto locked = [&](Table& table, std::uint32_t limit) {
    return [&table, limit, now](Window* window) {
      if (window == nullptr || window->failures < limit) return ThrottleVerdict{};
      const bool first = !window->refusalReported;
      window->refusalReported = true;
      return ThrottleVerdict{table.endOf(*window) - now, first};
    };
  };
  if (const ThrottleVerdict verdict =
          addresses_->with(keyOf(addressKey), now, locked(*addresses_, settings_.failuresPerAddress));
      verdict.retryAfterSeconds > 0) {
    return verdict;
  }
  const Key pair = keyOf(addressKey, accountKey);
  if (const ThrottleVerdict verdict = accountsFromAddresses_->with(
          pair, now, locked(*accountsFromAddresses_, settings_.failuresPerAccountAndAddress));
      verdict.retryAfterSeconds > 0) {
    return verdict;
  }
  const std::uint32_t accountFailures =
      accounts_->with(keyOf(accountKey), now, [](const Window* window) { return window ? window->failures : 0u; });
  if (accountFailures <= settings_.accountFailuresBeforeDelay) return ThrottleVerdict{};
  // 1 s for the first failure beyond the allowance, doubling with each further one.
  const std::uint32_t beyond = std::min<std::uint32_t>(accountFailures - settings_.accountFailuresBeforeDelay, 32);
  const std::int64_t delay = std::min<std::int64_t>(std::int64_t{1} << (beyond - 1), settings_.maxDelaySeconds);
  return accountsFromAddresses_->with(pair, now, [&](Window* window) {
    if (window == nullptr) return ThrottleVerdict{};
    const std::int64_t wait = window->lastFailureAt + delay - now;
    if (wait <= 0) return ThrottleVerdict{};
    const bool first = !window->refusalReported;
    window->refusalReported = true;
    return ThrottleVerdict{wait, first};
  });
}

void PasswordThrottle::recordFailure(std::string_view accountKey, std::string_view address) {
  const std::int64_t now = clock_();
  const std::string addressKey = common::addressKey(address);
  addresses_->countFailure(keyOf(addressKey), now);
  accountsFromAddresses_->countFailure(keyOf(addressKey, accountKey), now);
  accounts_->countFailure(keyOf(accountKey), now);
}

void PasswordThrottle::recordSuccess(std::string_view accountKey, std::string_view address) {
  const std::int64_t now = clock_();
  // That address's failures were the owner's own: they no longer slow others.
  const std::uint32_t ownFailures = accountsFromAddresses_->take(keyOf(common::addressKey(address), accountKey), now);
  if (ownFailures > 0) accounts_->discount(keyOf(accountKey), ownFailures, now);
}

std::size_t PasswordThrottle::trackedKeys() const {
  return addresses_->size() + accountsFromAddresses_->size() + accounts_->size();
}

}  // namespace codepayload::accounts
