// A bounded, sharded cache of verified access tokens, keyed by the exact token
// string (safe because AccessTokenVerifier only accepts the one canonical
// spelling of a signed token). An entry lives until its token expires (exp +
// leeway); then it is no longer returned and is dropped when its shard is
// full. Thread-safe; lookups take a shared lock on one shard and do not allocate.
// The cache holds what the signature proves, never whether the token is still
// honoured: BearerAuthenticator asks the RegistryView about the client (state,
// tokensNotBefore) on every use, so revocation needs no cache eviction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "auth/access_token_verifier.h"

namespace codepayload::auth {

class VerifiedTokenCache {
 public:
  // `capacity`: the most entries kept (spread over the shards), >= 1.
  explicit VerifiedTokenCache(std::size_t capacity);
  ~VerifiedTokenCache();

  VerifiedTokenCache(const VerifiedTokenCache&) = delete;
  VerifiedTokenCache& operator=(const VerifiedTokenCache&) = delete;

  // The claims of `token` if it is cached and `now <= validUntil`, else nullptr.
  std::shared_ptr<const AccessTokenClaims> find(std::string_view token, std::int64_t now) const;

  // Caches `claims` for `token` until `validUntil` (Unix seconds). When the
  // shard is full, expired entries are dropped first, then arbitrary ones.
  void insert(std::string_view token, std::shared_ptr<const AccessTokenClaims> claims, std::int64_t validUntil,
              std::int64_t now);

  std::size_t size() const;

 private:
  struct Shard;
  std::unique_ptr<Shard[]> shards_;
  std::size_t shardCapacity_;
};

}  // namespace codepayload::auth
