#include "auth/verified_token_cache.h"

#include <gtest/gtest.h>

namespace codepayload::auth {
namespace {

std::shared_ptr<const AccessTokenClaims> claims(std::string clientId) {
  auto result = std::make_shared<AccessTokenClaims>();
  result->clientId = std::move(clientId);
  return result;
}

TEST(VerifiedTokenCache, ReturnsAnEntryUntilItsValidUntil) {
  VerifiedTokenCache cache(64);
  const auto entry = claims("a");
  cache.insert("token-a", entry, 100, 10);
  EXPECT_EQ(cache.find("token-a", 10), entry);
  EXPECT_EQ(cache.find("token-a", 100), entry);
  EXPECT_EQ(cache.find("token-a", 101), nullptr);
  EXPECT_EQ(cache.find("token-b", 10), nullptr);
  EXPECT_EQ(cache.find("token-a ", 10), nullptr);  // the exact string only
  EXPECT_EQ(cache.size(), 1u);
}

TEST(VerifiedTokenCache, StaysWithinItsCapacityDroppingExpiredEntriesFirst) {
  VerifiedTokenCache cache(32);  // 16 shards of 2
  for (int index = 0; index < 1000; ++index) {
    cache.insert("token-" + std::to_string(index), claims(std::to_string(index)), 1000, 0);
  }
  EXPECT_LE(cache.size(), 32u);
  // Entries expired at time 2000: new ones replace them.
  for (int index = 0; index < 100; ++index) {
    cache.insert("new-" + std::to_string(index), claims("n"), 5000, 2000);
  }
  EXPECT_LE(cache.size(), 32u);
  cache.insert("last", claims("last"), 5000, 2000);
  ASSERT_NE(cache.find("last", 2000), nullptr);
  EXPECT_EQ(cache.find("last", 2000)->clientId, "last");
}

TEST(VerifiedTokenCache, ReplacesAnEntryForTheSameToken) {
  VerifiedTokenCache cache(16);
  cache.insert("t", claims("old"), 100, 0);
  cache.insert("t", claims("new"), 200, 0);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.find("t", 150)->clientId, "new");
}

}  // namespace
}  // namespace codepayload::auth
