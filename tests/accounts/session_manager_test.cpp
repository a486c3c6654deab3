#include "accounts/session_manager.h"

#include <gtest/gtest.h>

#include "memory_stores.h"

namespace codepayload::accounts {
namespace {

using testing::FakeClock;
using testing::kTestEpoch;
using testing::MemorySessionStore;

class SessionManagerTest : public ::testing::Test {
 protected:
  FakeClock clock_;
  MemorySessionStore store_;
  SessionManager sessions_{store_, SessionSettings{}, clock_.clock()};
};

TEST_F(SessionManagerTest, StoresOnlyTheDigestOfA256BitId) {
  const NewSession session = sessions_.start("usr_1");
  EXPECT_EQ(session.id.size(), 43u);
  EXPECT_EQ(session.expiresAt, kTestEpoch + 8 * 3600);
  ASSERT_EQ(store_.sessions.size(), 1u);
  const StoredSession& stored = store_.sessions.begin()->second;
  EXPECT_EQ(stored, (StoredSession{sessionIdDigest(session.id), "usr_1", kTestEpoch, kTestEpoch, kTestEpoch + 28800}));
  EXPECT_EQ(stored.idDigest.size(), 64u);
  EXPECT_EQ(stored.idDigest.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(stored.idDigest.find(session.id), std::string::npos);
  EXPECT_NE(sessions_.start("usr_1").id, session.id);
}

TEST_F(SessionManagerTest, DigestAndCsrfTokenAreFixedFunctionsOfTheId) {
  // SHA-256("abc") and HMAC-SHA-256(key "abc", "codepayload dashboard csrf").
  EXPECT_EQ(sessionIdDigest("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(csrfTokenOf("abc"), "I5pOKnnc76Qokv6sQk1eMLHTRbtbj9cE0LnCbfDPWe4");
  EXPECT_NE(csrfTokenOf("abd"), csrfTokenOf("abc"));
}

TEST_F(SessionManagerTest, ResumesAndRecordsActivity) {
  const NewSession session = sessions_.start("usr_1");
  clock_.advance(600);
  EXPECT_EQ(sessions_.resume(session.id), (ActiveSession{"usr_1", session.csrfToken, kTestEpoch, kTestEpoch + 28800}));
  EXPECT_EQ(store_.sessions.begin()->second.lastSeenAt, kTestEpoch + 600);
}

TEST_F(SessionManagerTest, EndsAfterThirtyIdleMinutes) {
  const NewSession session = sessions_.start("usr_1");
  clock_.advance(1799);
  EXPECT_TRUE(sessions_.resume(session.id));
  clock_.advance(1799);  // 1799 s after the last request
  EXPECT_TRUE(sessions_.resume(session.id));
  clock_.advance(1800);
  EXPECT_EQ(sessions_.resume(session.id), std::nullopt);
  EXPECT_TRUE(store_.sessions.empty());
}

TEST_F(SessionManagerTest, EndsEightHoursAfterSignInWhateverTheActivity) {
  const NewSession session = sessions_.start("usr_1");
  for (int minutes = 20; minutes < 480; minutes += 20) {
    clock_.advance(1200);
    ASSERT_TRUE(sessions_.resume(session.id)) << minutes;
  }
  clock_.advance(1199);  // 8 h - 1 s
  EXPECT_TRUE(sessions_.resume(session.id));
  clock_.advance(1);
  EXPECT_EQ(sessions_.resume(session.id), std::nullopt);
  EXPECT_TRUE(store_.sessions.empty());
}

TEST_F(SessionManagerTest, ANewSignInEndsTheBrowsersEarlierSession) {
  const NewSession first = sessions_.start("usr_1");
  const NewSession second = sessions_.start("usr_2", first.id);
  EXPECT_EQ(sessions_.resume(first.id), std::nullopt);
  EXPECT_EQ(sessions_.resume(second.id)->principalId, "usr_2");
  EXPECT_EQ(store_.sessions.size(), 1u);
}

TEST_F(SessionManagerTest, SignOutAndSignOutEverywhere) {
  const NewSession laptop = sessions_.start("usr_1");
  const NewSession phone = sessions_.start("usr_1");
  const NewSession other = sessions_.start("usr_2");
  sessions_.end(laptop.id);
  EXPECT_EQ(sessions_.resume(laptop.id), std::nullopt);
  EXPECT_TRUE(sessions_.resume(phone.id));
  const NewSession tablet = sessions_.start("usr_1");
  EXPECT_EQ(sessions_.endAllOf("usr_1"), 2u);
  EXPECT_EQ(sessions_.resume(phone.id), std::nullopt);
  EXPECT_EQ(sessions_.resume(tablet.id), std::nullopt);
  EXPECT_TRUE(sessions_.resume(other.id));
  EXPECT_EQ(sessions_.endAllOf("usr_1"), 0u);
  sessions_.end("not a session id");
}

TEST_F(SessionManagerTest, RefusesMalformedAndUnknownIds) {
  const NewSession session = sessions_.start("usr_1");
  EXPECT_EQ(sessions_.resume(""), std::nullopt);
  EXPECT_EQ(sessions_.resume(session.id.substr(1)), std::nullopt);
  EXPECT_EQ(sessions_.resume(session.id + "A"), std::nullopt);
  EXPECT_EQ(sessions_.resume(std::string(42, 'A') + "="), std::nullopt);
  EXPECT_EQ(sessions_.resume(std::string(43, 'A')), std::nullopt);
  EXPECT_EQ(sessions_.resume(sessionIdDigest(session.id)), std::nullopt);  // the stored digest is no id
}

TEST_F(SessionManagerTest, ChecksTheCsrfTokenOfItsOwnSession) {
  const NewSession session = sessions_.start("usr_1");
  const NewSession other = sessions_.start("usr_1");
  EXPECT_TRUE(SessionManager::csrfTokenMatches(session.id, session.csrfToken));
  EXPECT_FALSE(SessionManager::csrfTokenMatches(session.id, other.csrfToken));
  EXPECT_FALSE(SessionManager::csrfTokenMatches(session.id, ""));
  EXPECT_FALSE(SessionManager::csrfTokenMatches(session.id, session.csrfToken.substr(1)));
  EXPECT_FALSE(SessionManager::csrfTokenMatches(session.id, session.csrfToken + "x"));
  EXPECT_FALSE(SessionManager::csrfTokenMatches("", csrfTokenOf("")));
  EXPECT_EQ(sessions_.resume(session.id)->csrfToken, session.csrfToken);
}

}  // namespace
}  // namespace codepayload::accounts
