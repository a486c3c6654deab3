#include "auth/verified_token_cache.h"

#include <functional>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "common/string_hash.h"

namespace codepayload::auth {

namespace {

constexpr std::size_t kShardCount = 16;

struct Entry {
  std::shared_ptr<const AccessTokenClaims> claims;
  std::int64_t validUntil = 0;
};

}  // namespace

struct VerifiedTokenCache::Shard {
  mutable std::shared_mutex mutex;
  std::unordered_map<std::string, Entry, common::TransparentStringHash, std::equal_to<>> entries;
};

VerifiedTokenCache::VerifiedTokenCache(std::size_t capacity)
    : shards_(std::make_unique<Shard[]>(kShardCount)),
      shardCapacity_(capacity < kShardCount ? 1 : capacity / kShardCount) {}

VerifiedTokenCache::~VerifiedTokenCache() = default;

std::shared_ptr<const AccessTokenClaims> VerifiedTokenCache::find(std::string_view token, std::int64_t now) const {
  const std::size_t hash = common::TransparentStringHash{}(token);
  const Shard& shard = shards_[hash % kShardCount];
  std::shared_lock lock(shard.mutex);
  const auto found = shard.entries.find(token);
  if (found == shard.entries.end() || now > found->second.validUntil) return nullptr;
  return found->second.claims;
}

void VerifiedTokenCache::insert(std::string_view token, std::shared_ptr<const AccessTokenClaims> claims,
                                std::int64_t validUntil, std::int64_t now) {
  const std::size_t hash = common::TransparentStringHash{}(token);
  Shard& shard = shards_[hash % kShardCount];
  std::unique_lock lock(shard.mutex);
  if (shard.entries.size() >= shardCapacity_ && shard.entries.find(token) == shard.entries.end()) {
    std::erase_if(shard.entries, [now](const auto& item) { return now > item.second.validUntil; });
    if (shard.entries.size() >= shardCapacity_) shard.entries.erase(shard.entries.begin());
  }
  shard.entries.insert_or_assign(std::string(token), Entry{std::move(claims), validUntil});
}

std::size_t VerifiedTokenCache::size() const {
  std::size_t total = 0;
  for (std::size_t index = 0; index < kShardCount; ++index) {
    std::shared_lock lock(shards_[index].mutex);
    total += shards_[index].entries.size();
  }
  return total;
}

}  // namespace codepayload::auth
