#include "auth/auth_throttle.h"

#include <gtest/gtest.h>

#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

using testing::FakeClock;

ThrottleSettings settings(std::uint32_t perAddress, std::uint32_t perClient, std::uint32_t tokens,
                          std::size_t maxKeys = 1000) {
  ThrottleSettings result;
  result.failuresPerAddress = perAddress;
  result.failuresPerClient = perClient;
  result.tokensPerClient = tokens;
  result.windowSeconds = 60;
  result.maxTrackedKeys = maxKeys;
  return result;
}

TEST(AuthThrottle, AddressIsThrottledAfterItsBudgetUntilTheWindowEnds) {
  FakeClock clock;
  AuthThrottle throttle(settings(2, 100, 100), clock.clock());
  EXPECT_EQ(throttle.addressRetryAfter("a"), 0);
  throttle.recordFailure("a", "");
  clock.advance(10);
  EXPECT_EQ(throttle.addressRetryAfter("a"), 0);
  throttle.recordFailure("a", "");
  EXPECT_EQ(throttle.addressRetryAfter("a"), 50);  // window opened at the first failure
  EXPECT_EQ(throttle.addressRetryAfter("b"), 0);
  clock.advance(49);
  EXPECT_EQ(throttle.addressRetryAfter("a"), 1);
  clock.advance(1);
  EXPECT_EQ(throttle.addressRetryAfter("a"), 0);
  throttle.recordFailure("a", "");
  EXPECT_EQ(throttle.addressRetryAfter("a"), 0);  // a fresh window
}

TEST(AuthThrottle, ClientFailuresAreCountedOnlyWithAnId) {
  FakeClock clock;
  AuthThrottle throttle(settings(100, 2, 100), clock.clock());
  throttle.recordFailure("a", "client");
  throttle.recordFailure("b", "");
  EXPECT_EQ(throttle.clientFailureRetryAfter("client"), 0);
  throttle.recordFailure("c", "client");
  EXPECT_EQ(throttle.clientFailureRetryAfter("client"), 60);
  EXPECT_EQ(throttle.clientFailureRetryAfter("other"), 0);
  EXPECT_EQ(throttle.clientFailureRetryAfter(""), 0);
}

TEST(AuthThrottle, IssuanceIsCountedOnlyWhenAllowed) {
  FakeClock clock;
  AuthThrottle throttle(settings(100, 100, 2), clock.clock());
  EXPECT_EQ(throttle.acquireIssuance("client"), 0);
  EXPECT_EQ(throttle.acquireIssuance("client"), 0);
  clock.advance(20);
  EXPECT_EQ(throttle.acquireIssuance("client"), 40);
  EXPECT_EQ(throttle.acquireIssuance("other"), 0);
  clock.advance(40);
  EXPECT_EQ(throttle.acquireIssuance("client"), 0);
}

TEST(AuthThrottle, StaysBoundedUnderAFloodOfKeys) {
  FakeClock clock;
  AuthThrottle throttle(settings(1, 1, 1, 64), clock.clock());
  throttle.recordFailure("first", "");
  EXPECT_EQ(throttle.addressRetryAfter("first"), 60);
  for (int key = 0; key < 10000; ++key) throttle.recordFailure("flood-" + std::to_string(key), "");
  // Memory stays bounded (64 keys); a recent key may have been evicted, an
  // evicted key simply starts over.
  int stillTracked = 0;
  for (int key = 9990; key < 10000; ++key) {
    if (throttle.addressRetryAfter("flood-" + std::to_string(key)) > 0) ++stillTracked;
  }
  EXPECT_GT(stillTracked, 0);
  clock.advance(60);
  throttle.recordFailure("late", "");
  EXPECT_EQ(throttle.addressRetryAfter("late"), 60);
}

TEST(AuthThrottle, AllAddressesOfAnIpv6Slash64ShareOneBudget) {
  FakeClock clock;
  AuthThrottle throttle(settings(2, 100, 100), clock.clock());
  throttle.recordFailure("2001:db8:1:2::1", "");
  throttle.recordFailure("2001:db8:1:2::2", "");
  EXPECT_EQ(throttle.addressRetryAfter("2001:db8:1:2:dead:beef:0:3"), 60);
  EXPECT_EQ(throttle.addressRetryAfter("2001:db8:1:3::1"), 0);
  throttle.recordFailure("::ffff:192.0.2.7", "");
  throttle.recordFailure("192.0.2.7", "");
  EXPECT_EQ(throttle.addressRetryAfter("192.0.2.7"), 60);
}

}  // namespace
}  // namespace codepayload::auth
