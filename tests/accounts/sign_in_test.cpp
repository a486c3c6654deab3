#include "accounts/sign_in.h"

#include <gtest/gtest.h>

#include "accounts/recovery_codes.h"
#include "memory_stores.h"

namespace codepayload::accounts {
namespace {

using Outcome = SignInResult::Outcome;
using testing::FakeClock;
using testing::MemoryCredentialSource;
using testing::MemorySessionStore;

constexpr std::string_view kPassword = "correct horse battery staple";
constexpr std::string_view kTotpSecret = "12345678901234567890";

// One shared hasher: each construction runs Argon2 once.
const PasswordHasher& hasher() {
  static const PasswordHasher instance;
  return instance;
}

class SignInTest : public ::testing::Test {
 protected:
  SignInTest() {
    accounts_.accounts["ana@example.com"] =
        Credentials{"usr_ana", hasher().hash(kPassword), std::nullopt, std::nullopt};
  }

  SignInResult signIn(std::string_view email, std::string_view password, std::string_view secondFactor = {},
                      std::string_view address = "192.0.2.1") {
    return service_.signIn(SignInAttempt{email, password, secondFactor, address, {}});
  }

  void enableTotp() { accounts_.accounts["ana@example.com"].totpSecret = std::string(kTotpSecret); }

  FakeClock clock_;
  MemorySessionStore sessionStore_;
  MemoryCredentialSource accounts_;
  SessionManager sessions_{sessionStore_, SessionSettings{}, clock_.clock()};
  PasswordCheck passwords_{accounts_, hasher(), PasswordThrottleSettings{}, clock_.clock()};
  SignInService service_{accounts_, passwords_, sessions_, SignInSettings{}, clock_.clock()};
};

TEST_F(SignInTest, SignsInWithTheRightPasswordAndAnyCaseOfTheEmail) {
  const SignInResult result = signIn("Ana@Example.com", kPassword);
  EXPECT_EQ(result.outcome, Outcome::SignedIn);
  EXPECT_EQ(result.principalId, "usr_ana");
  ASSERT_TRUE(result.session);
  EXPECT_EQ(sessions_.resume(result.session->id)->principalId, "usr_ana");
  EXPECT_EQ(passwords_.argon2Runs(), 1u);
}

TEST_F(SignInTest, UnknownEmailAndWrongPasswordGetTheSameAnswerAndCost) {
  const SignInResult wrong = signIn("ana@example.com", "not the password");
  EXPECT_EQ(passwords_.argon2Runs(), 1u);
  const SignInResult unknown = signIn("bob@example.com", kPassword);
  EXPECT_EQ(passwords_.argon2Runs(), 2u);  // the dummy verification
  EXPECT_EQ(wrong.outcome, Outcome::Refused);
  EXPECT_EQ(unknown.outcome, Outcome::Refused);
  EXPECT_EQ(wrong.session, std::nullopt);
  EXPECT_EQ(unknown.session, std::nullopt);
  EXPECT_EQ(wrong.retryAfterSeconds, unknown.retryAfterSeconds);
  EXPECT_EQ(wrong.principalId, "usr_ana");  // for the audit log only
  EXPECT_EQ(unknown.principalId, "");
  EXPECT_TRUE(sessionStore_.sessions.empty());
}

TEST_F(SignInTest, TenFailuresFromOneAddressDoNotLockTheOwnerOut) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    EXPECT_EQ(signIn("ana@example.com", "wrong password", {}, "192.0.2.66").outcome, Outcome::Refused);
    EXPECT_EQ(signIn("nobody@example.com", "wrong password", {}, "192.0.2.66").outcome, Outcome::Refused);
  }
  const std::uint64_t verifications = passwords_.argon2Runs();
  clock_.advance(60);
  // The stranger's address is refused for both emails alike, before any password check ...
  const SignInResult known = signIn("ANA@example.com", kPassword, {}, "192.0.2.66");
  const SignInResult unknown = signIn("nobody@example.com", kPassword, {}, "192.0.2.66");
  EXPECT_EQ(known.outcome, Outcome::Throttled);
  EXPECT_EQ(known.retryAfterSeconds, 900 - 60);
  EXPECT_TRUE(known.firstRefusal);
  EXPECT_EQ(known.principalId, "");
  EXPECT_EQ(unknown.outcome, Outcome::Throttled);
  EXPECT_EQ(unknown.retryAfterSeconds, 900 - 60);
  EXPECT_EQ(passwords_.argon2Runs(), verifications);
  EXPECT_FALSE(signIn("ana@example.com", kPassword, {}, "192.0.2.66").firstRefusal);
  // ... and the owner, from another address, signs in at once; again and again.
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(signIn("ana@example.com", kPassword, {}, "198.51.100.7").outcome, Outcome::SignedIn);
    for (int attempt = 0; attempt < 10; ++attempt) signIn("ana@example.com", "wrong", {}, "192.0.2.67");
    clock_.advance(900);
  }
}

TEST_F(SignInTest, ADistributedGuessSlowsTheGuessersNotTheOwner) {
  // Thirteen addresses, one wrong password each.
  for (int address = 1; address <= 13; ++address) {
    EXPECT_EQ(signIn("ana@example.com", "guess", {}, "203.0.113." + std::to_string(address)).outcome, Outcome::Refused);
  }
  // Each of them now waits 2^(13 - 10 - 1) = 4 s before its next guess, unknown emails alike.
  const SignInResult slowed = signIn("ana@example.com", kPassword, {}, "203.0.113.1");
  EXPECT_EQ(slowed.outcome, Outcome::Throttled);
  EXPECT_EQ(slowed.retryAfterSeconds, 4);
  for (int address = 1; address <= 13; ++address) {
    signIn("nobody@example.com", "guess", {}, "203.0.113." + std::to_string(address));
  }
  EXPECT_EQ(signIn("nobody@example.com", kPassword, {}, "203.0.113.1").retryAfterSeconds, 4);
  // The owner from an address that has not failed is checked at once.
  EXPECT_EQ(signIn("ana@example.com", kPassword, {}, "192.0.2.44").outcome, Outcome::SignedIn);
  // The owner who mistypes from there waits like the others, then gets in.
  EXPECT_EQ(signIn("ana@example.com", "typo", {}, "192.0.2.45").outcome, Outcome::Refused);
  const SignInResult waiting = signIn("ana@example.com", kPassword, {}, "192.0.2.45");
  EXPECT_EQ(waiting.outcome, Outcome::Throttled);
  EXPECT_EQ(waiting.retryAfterSeconds, 8);
  clock_.advance(8);
  EXPECT_EQ(signIn("ana@example.com", kPassword, {}, "192.0.2.45").outcome, Outcome::SignedIn);
}

TEST_F(SignInTest, ThrottlesAnAddressAfterFiftyFailures) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    EXPECT_EQ(signIn("user" + std::to_string(attempt) + "@example.com", "x", {}, "203.0.113.5").outcome,
              Outcome::Refused);
  }
  const SignInResult result = signIn("ana@example.com", kPassword, {}, "203.0.113.5");
  EXPECT_EQ(result.outcome, Outcome::Throttled);
  EXPECT_EQ(result.retryAfterSeconds, 900);
  EXPECT_EQ(signIn("ana@example.com", kPassword, {}, "203.0.113.6").outcome, Outcome::SignedIn);
}

TEST_F(SignInTest, ASignInEndsTheBrowsersEarlierSession) {
  const SignInResult first = signIn("ana@example.com", kPassword);
  const SignInResult second =
      service_.signIn(SignInAttempt{"ana@example.com", kPassword, {}, "192.0.2.1", first.session->id});
  EXPECT_EQ(sessions_.resume(first.session->id), std::nullopt);
  EXPECT_TRUE(sessions_.resume(second.session->id));
  EXPECT_NE(first.session->id, second.session->id);
}

TEST_F(SignInTest, AsksForTheCodeThenAcceptsItOnce) {
  enableTotp();
  const SignInResult asked = signIn("ana@example.com", kPassword);
  EXPECT_EQ(asked.outcome, Outcome::SecondFactorNeeded);
  EXPECT_EQ(asked.session, std::nullopt);
  const std::string code = totpCode(kTotpSecret, clock_.now());
  EXPECT_EQ(signIn("ana@example.com", kPassword, code).outcome, Outcome::SignedIn);
  EXPECT_EQ(accounts_.accounts["ana@example.com"].lastTotpStep, totpStep(clock_.now(), 30));
  EXPECT_EQ(signIn("ana@example.com", kPassword, code).outcome, Outcome::Refused);  // replayed
  clock_.advance(30);
  EXPECT_EQ(signIn("ana@example.com", kPassword, totpCode(kTotpSecret, clock_.now())).outcome, Outcome::SignedIn);
}

TEST_F(SignInTest, AWrongCodeIsARefusalAndCounts) {
  enableTotp();
  const std::string code = totpCode(kTotpSecret, clock_.now());
  const std::string wrong = code == "000000" ? "111111" : "000000";
  EXPECT_EQ(signIn("ana@example.com", kPassword, wrong).outcome, Outcome::Refused);
  EXPECT_EQ(signIn("ana@example.com", "wrong password", code).outcome, Outcome::Refused);  // code unused
  EXPECT_EQ(accounts_.accounts["ana@example.com"].lastTotpStep, std::nullopt);
  for (int attempt = 0; attempt < 8; ++attempt) signIn("ana@example.com", kPassword, wrong);
  EXPECT_EQ(signIn("ana@example.com", kPassword, code).outcome, Outcome::Throttled);
}

TEST_F(SignInTest, ARecoveryCodeWorksOnce) {
  enableTotp();
  const RecoveryCodes codes = newRecoveryCodes(2);
  for (const std::string& digest : codes.digests) accounts_.recoveryCodes.insert("usr_ana " + digest);
  const SignInResult result = signIn("ana@example.com", kPassword, codes.codes[0]);
  EXPECT_EQ(result.outcome, Outcome::SignedIn);
  EXPECT_TRUE(result.usedRecoveryCode);
  EXPECT_EQ(signIn("ana@example.com", kPassword, codes.codes[0]).outcome, Outcome::Refused);
  EXPECT_EQ(accounts_.recoveryCodes, (std::set<std::string>{"usr_ana " + codes.digests[1]}));
  EXPECT_EQ(signIn("ana@example.com", kPassword, "abcd-efgh-ijkl-mnop").outcome, Outcome::Refused);
}

TEST_F(SignInTest, RehashesAPasswordMadeWithWeakerParameters) {
  const PasswordHasher stronger(Argon2Parameters{19456, 3, 1});
  PasswordCheck strongerPasswords(accounts_, stronger, PasswordThrottleSettings{}, clock_.clock());
  SignInService strongerService(accounts_, strongerPasswords, sessions_, SignInSettings{}, clock_.clock());
  const std::string before = accounts_.accounts["ana@example.com"].passwordHash;
  EXPECT_EQ(strongerService.signIn(SignInAttempt{"ana@example.com", kPassword, {}, "192.0.2.1", {}}).outcome,
            Outcome::SignedIn);
  const std::string after = accounts_.accounts["ana@example.com"].passwordHash;
  EXPECT_EQ(after.substr(0, 31), "$argon2id$v=19$m=19456,t=3,p=1$");
  EXPECT_TRUE(stronger.verify(kPassword, after));
  EXPECT_EQ(signIn("ana@example.com", kPassword).outcome, Outcome::SignedIn);
  EXPECT_NE(before, after);
}

}  // namespace
}  // namespace codepayload::accounts
