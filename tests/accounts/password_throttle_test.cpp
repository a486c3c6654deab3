#include "accounts/password_throttle.h"

#include <gtest/gtest.h>

#include <string>

#include "memory_stores.h"

namespace codepayload::accounts {
namespace {

using testing::FakeClock;

constexpr ThrottleVerdict kAdmitted{0, false};

class PasswordThrottleTest : public ::testing::Test {
 protected:
  FakeClock clock_;
  PasswordThrottle throttle_{PasswordThrottleSettings{}, clock_.clock()};
};

TEST_F(PasswordThrottleTest, TheDefaultsAreTheDocumentedOnes) {
  const PasswordThrottleSettings defaults;
  EXPECT_EQ(defaults.failuresPerAddress, 50u);
  EXPECT_EQ(defaults.failuresPerAccountAndAddress, 10u);
  EXPECT_EQ(defaults.accountFailuresBeforeDelay, 10u);
  EXPECT_EQ(defaults.maxDelaySeconds, 300);
  EXPECT_EQ(defaults.windowSeconds, 900);
  EXPECT_EQ(defaults.maxTrackedKeys, 100000u);
}

TEST_F(PasswordThrottleTest, TenFailuresLockThatAddressOutOfThatAccountOnly) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.2"), kAdmitted) << attempt;
    throttle_.recordFailure("ana@example.com", "192.0.2.2");
    clock_.advance(1);
  }
  // The window opened at the first failure, ten seconds ago.
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.2"), (ThrottleVerdict{890, true}));
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.2"), (ThrottleVerdict{890, false}));
  // The owner, from an address of their own, and other accounts from the
  // attacker's address are not touched.
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.3"), kAdmitted);
  EXPECT_EQ(throttle_.admit("bob@example.com", "192.0.2.2"), kAdmitted);
  clock_.advance(889);
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.2"), (ThrottleVerdict{1, false}));
  clock_.advance(1);
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.2"), kAdmitted);
}

TEST_F(PasswordThrottleTest, FiftyFailuresLockTheAddressOutOfEveryAccount) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    throttle_.recordFailure("user" + std::to_string(attempt) + "@example.com", "203.0.113.5");
  }
  EXPECT_EQ(throttle_.admit("ana@example.com", "203.0.113.5"), (ThrottleVerdict{900, true}));
  EXPECT_EQ(throttle_.admit("bob@example.com", "203.0.113.5"), (ThrottleVerdict{900, false}));
  EXPECT_EQ(throttle_.admit("ana@example.com", "203.0.113.6"), kAdmitted);
}

TEST_F(PasswordThrottleTest, AnIpv6Slash64IsOneAddress) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    throttle_.recordFailure("ana@example.com", "2001:db8:1:2::" + std::to_string(attempt + 1));
  }
  EXPECT_EQ(throttle_.admit("ana@example.com", "2001:db8:1:2:ffff::9").retryAfterSeconds, 900);
  EXPECT_EQ(throttle_.admit("ana@example.com", "2001:db8:1:3::1"), kAdmitted);
}

TEST_F(PasswordThrottleTest, ManyAddressesOnlyDelayTheAddressesThatFailedAndTheDelayDoubles) {
  // Ten failures from ten addresses: the account's allowance, no delay yet.
  for (int address = 1; address <= 10; ++address) {
    throttle_.recordFailure("ana@example.com", "198.51.100." + std::to_string(address));
  }
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.1"), kAdmitted);
  // The eleventh: an address that failed waits 1 s after its last failure.
  throttle_.recordFailure("ana@example.com", "198.51.100.11");
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.11"), (ThrottleVerdict{1, true}));
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.11"), (ThrottleVerdict{1, false}));
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.1"), (ThrottleVerdict{1, true}));
  // An address that has not failed for the account is checked at once.
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.99"), kAdmitted);
  // Another account is not slowed.
  EXPECT_EQ(throttle_.admit("bob@example.com", "198.51.100.1"), kAdmitted);
  // Each further failure doubles the delay: 2, 4, 8 s ...
  for (const std::int64_t expected : {2, 4, 8, 16, 32, 64, 128, 256}) {
    clock_.advance(1);
    throttle_.recordFailure("ana@example.com", "198.51.100.12");
    EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.12"), (ThrottleVerdict{expected, true}));
  }
  // ... up to five minutes.
  clock_.advance(1);
  throttle_.recordFailure("ana@example.com", "198.51.100.13");
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.13"), (ThrottleVerdict{300, true}));
  clock_.advance(299);
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.13"), (ThrottleVerdict{1, false}));
  clock_.advance(1);
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.13"), kAdmitted);
  // A failure after the wait starts the next one, and may be reported again.
  throttle_.recordFailure("ana@example.com", "198.51.100.13");
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.13"), (ThrottleVerdict{300, true}));
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.99"), kAdmitted);
}

TEST_F(PasswordThrottleTest, TheDelayEndsWithTheAccountsWindow) {
  for (int address = 1; address <= 11; ++address) {
    throttle_.recordFailure("ana@example.com", "198.51.100." + std::to_string(address));
  }
  clock_.advance(900);
  // The account's window and each address's are over: nothing is counted.
  throttle_.recordFailure("ana@example.com", "198.51.100.1");
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.1"), kAdmitted);
}

TEST_F(PasswordThrottleTest, ASuccessEndsThatAddresssFailuresForTheAccountOnly) {
  for (int attempt = 0; attempt < 9; ++attempt) throttle_.recordFailure("ana@example.com", "192.0.2.7");
  throttle_.recordSuccess("ANA@example.com", "192.0.2.7");  // another key: nothing ends
  throttle_.recordFailure("ana@example.com", "192.0.2.7");
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.7").retryAfterSeconds, 900);
  throttle_.recordSuccess("ana@example.com", "192.0.2.7");
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.7"), kAdmitted);
  // The address's own count stays: 10 so far, 40 more lock it for everyone.
  for (int attempt = 0; attempt < 40; ++attempt) {
    throttle_.recordFailure("other" + std::to_string(attempt) + "@example.com", "192.0.2.7");
  }
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.7").retryAfterSeconds, 900);
}

TEST_F(PasswordThrottleTest, TheOwnersOwnTyposLeaveTheAccountsCountWithTheirSuccess) {
  for (int address = 1; address <= 10; ++address) {
    throttle_.recordFailure("ana@example.com", "198.51.100." + std::to_string(address));
  }
  throttle_.recordFailure("ana@example.com", "192.0.2.50");
  throttle_.recordFailure("ana@example.com", "192.0.2.50");
  // Twelve: the owner, who mistyped twice, waits too.
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.50"), (ThrottleVerdict{2, true}));
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.1"), (ThrottleVerdict{2, true}));
  clock_.advance(2);
  EXPECT_EQ(throttle_.admit("ana@example.com", "192.0.2.50"), kAdmitted);
  throttle_.recordSuccess("ana@example.com", "192.0.2.50");
  // Ten left, the strangers': within the allowance, so no delay for anyone ...
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.1"), kAdmitted);
  // ... until the next failure.
  throttle_.recordFailure("ana@example.com", "198.51.100.1");
  EXPECT_EQ(throttle_.admit("ana@example.com", "198.51.100.1"), (ThrottleVerdict{1, true}));
}

TEST_F(PasswordThrottleTest, ATypedEmailOfAnyLengthIsOneKey) {
  const std::string huge(60000, 'x');
  for (int attempt = 0; attempt < 10; ++attempt) throttle_.recordFailure(huge, "192.0.2.8");
  EXPECT_EQ(throttle_.admit(huge, "192.0.2.8").retryAfterSeconds, 900);
  EXPECT_EQ(throttle_.admit(huge + "y", "192.0.2.8"), kAdmitted);
  // The pair's key keeps its parts apart: the same text split elsewhere
  // between address and email is another pair.
  EXPECT_EQ(throttle_.admit(huge.substr(1), "192.0.2.8x"), kAdmitted);
  EXPECT_EQ(throttle_.trackedKeys(), 3u);
}

TEST(PasswordThrottle, StaysBoundedUnderAFloodOfKeys) {
  FakeClock clock;
  PasswordThrottleSettings settings;
  settings.maxTrackedKeys = 64;
  PasswordThrottle throttle(settings, clock.clock());
  for (int attempt = 0; attempt < 2000; ++attempt) {
    throttle.recordFailure("user" + std::to_string(attempt) + "@example.com",
                           "10.0." + std::to_string(attempt / 256) + "." + std::to_string(attempt % 256));
  }
  // 16 shards of 4 keys in each of the three tables, every one of them full.
  EXPECT_EQ(throttle.trackedKeys(), 3u * 64u);
  // Ended windows go first: after the window, a new flood still finds room.
  clock.advance(900);
  for (int attempt = 0; attempt < 10; ++attempt) throttle.recordFailure("ana@example.com", "192.0.2.1");
  EXPECT_EQ(throttle.admit("ana@example.com", "192.0.2.1").retryAfterSeconds, 900);
}

}  // namespace
}  // namespace codepayload::accounts
