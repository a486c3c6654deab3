#include "accounts/password_check.h"

#include <gtest/gtest.h>

#include <string>

#include "memory_stores.h"

namespace codepayload::accounts {
namespace {

using Outcome = PasswordCheckResult::Outcome;
using testing::FakeClock;
using testing::MemoryCredentialSource;

constexpr std::string_view kPassword = "correct horse battery staple";

const PasswordHasher& hasher() {
  static const PasswordHasher instance;
  return instance;
}

class PasswordCheckTest : public ::testing::Test {
 protected:
  PasswordCheckTest() {
    accounts_.accounts["ana@example.com"] =
        Credentials{"usr_ana", hasher().hash(kPassword), std::nullopt, std::nullopt};
  }

  PasswordCheckResult confirm(std::string_view email, std::string_view password, std::string_view address) {
    return check_.confirmPassword(PasswordAttempt{email, password, address});
  }

  FakeClock clock_;
  MemoryCredentialSource accounts_;
  PasswordCheck check_{accounts_, hasher(), PasswordThrottleSettings{}, clock_.clock()};
};

TEST_F(PasswordCheckTest, RightWrongAndUnknownCostOneArgon2RunEach) {
  const PasswordCheckResult right = confirm("Ana@Example.com", kPassword, "192.0.2.1");
  EXPECT_EQ(right.outcome, Outcome::Right);
  ASSERT_TRUE(right.credentials);
  EXPECT_EQ(right.credentials->principalId, "usr_ana");
  EXPECT_EQ(check_.argon2Runs(), 1u);
  const PasswordCheckResult wrong = confirm("ana@example.com", "not the password", "192.0.2.1");
  EXPECT_EQ(wrong.outcome, Outcome::Wrong);
  EXPECT_EQ(wrong.credentials->principalId, "usr_ana");
  EXPECT_EQ(check_.argon2Runs(), 2u);
  const PasswordCheckResult unknown = confirm("bob@example.com", kPassword, "192.0.2.1");
  EXPECT_EQ(unknown.outcome, Outcome::Wrong);
  EXPECT_EQ(unknown.credentials, std::nullopt);
  EXPECT_EQ(check_.argon2Runs(), 3u);  // the dummy verification
  EXPECT_EQ(wrong.retryAfterSeconds, 0);
  EXPECT_EQ(unknown.retryAfterSeconds, 0);
}

TEST_F(PasswordCheckTest, AThrottledCheckReadsNothingAndRunsNoArgon2) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    EXPECT_EQ(confirm("ana@example.com", "guess " + std::to_string(attempt), "192.0.2.2").outcome, Outcome::Wrong);
  }
  const std::uint64_t runs = check_.argon2Runs();
  const std::size_t lookups = accounts_.lookups;
  clock_.advance(5);
  const PasswordCheckResult first = confirm("ana@example.com", kPassword, "192.0.2.2");
  EXPECT_EQ(first.outcome, Outcome::Throttled);
  EXPECT_EQ(first.retryAfterSeconds, 895);
  EXPECT_TRUE(first.firstRefusal);
  EXPECT_EQ(first.credentials, std::nullopt);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const PasswordCheckResult again = confirm("ana@example.com", "guess", "192.0.2.2");
    EXPECT_EQ(again.outcome, Outcome::Throttled);
    EXPECT_FALSE(again.firstRefusal);
  }
  EXPECT_EQ(check_.argon2Runs(), runs);
  EXPECT_EQ(accounts_.lookups, lookups);
  // An unknown email is throttled alike.
  for (int attempt = 0; attempt < 10; ++attempt) confirm("nobody@example.com", "guess", "192.0.2.2");
  const PasswordCheckResult unknown = confirm("nobody@example.com", kPassword, "192.0.2.2");
  EXPECT_EQ(unknown.outcome, Outcome::Throttled);
  EXPECT_EQ(unknown.retryAfterSeconds, 900);
  // The owner elsewhere is not.
  EXPECT_EQ(confirm("ana@example.com", kPassword, "192.0.2.3").outcome, Outcome::Right);
}

TEST_F(PasswordCheckTest, ARightPasswordAskedAgainEndsTheAddresssFailuresASignInPasswordDoesNot) {
  for (int attempt = 0; attempt < 9; ++attempt) confirm("ana@example.com", "typo", "192.0.2.4");
  EXPECT_EQ(confirm("ana@example.com", kPassword, "192.0.2.4").outcome, Outcome::Right);
  for (int attempt = 0; attempt < 9; ++attempt) confirm("ana@example.com", "typo", "192.0.2.4");
  EXPECT_EQ(confirm("ana@example.com", kPassword, "192.0.2.4").outcome, Outcome::Right);

  // At sign-in the second factor may still fail: the right password alone ends nothing.
  for (int attempt = 0; attempt < 9; ++attempt) confirm("ana@example.com", "typo", "192.0.2.5");
  EXPECT_EQ(check_.checkSignInPassword(PasswordAttempt{"ana@example.com", kPassword, "192.0.2.5"}).outcome,
            Outcome::Right);
  check_.recordFailure("ana@example.com", "192.0.2.5");  // a wrong code
  EXPECT_EQ(check_.checkSignInPassword(PasswordAttempt{"ana@example.com", kPassword, "192.0.2.5"}).outcome,
            Outcome::Throttled);
}

}  // namespace
}  // namespace codepayload::accounts
