#include "accounts/password_hasher.h"

#include <argon2.h>
#include <gtest/gtest.h>

#include <cstring>

namespace codepayload::accounts {
namespace {

constexpr std::string_view kPassword = "correct horse battery staple";
constexpr unsigned char kSalt[] = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

// The PHC string libargon2's own encoder writes, for comparison.
std::string libraryEncoded(std::uint32_t passes, std::uint32_t memoryKib, std::uint32_t lanes) {
  char encoded[256];
  EXPECT_EQ(argon2id_hash_encoded(passes, memoryKib, lanes, kPassword.data(), kPassword.size(), kSalt, sizeof kSalt, 32,
                                  encoded, sizeof encoded),
            ARGON2_OK);
  return encoded;
}

class PasswordHasherTest : public ::testing::Test {
 protected:
  PasswordHasher hasher_;
};

TEST_F(PasswordHasherTest, DefaultsAreTheOwaspMinimum) {
  EXPECT_EQ(hasher_.parameters(), (Argon2Parameters{19456, 2, 1}));
}

TEST_F(PasswordHasherTest, KnownAnswerWithAFixedSalt) {
  const std::string encoded = hasher_.hashWithSalt(kPassword, kSalt);
  EXPECT_EQ(encoded,
            "$argon2id$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$gy5SuVm5Z7Vw7keB9se9p87QGcomaseB/S2U1OhTsM0");
  EXPECT_EQ(encoded, libraryEncoded(2, 19456, 1));
  EXPECT_EQ(argon2id_verify(encoded.c_str(), kPassword.data(), kPassword.size()), ARGON2_OK);
}

TEST_F(PasswordHasherTest, VerifiesOnlyTheRightPassword) {
  const std::string encoded = hasher_.hash(kPassword);
  EXPECT_TRUE(hasher_.verify(kPassword, encoded));
  EXPECT_FALSE(hasher_.verify("correct horse battery stapl", encoded));
  EXPECT_FALSE(hasher_.verify("Correct horse battery staple", encoded));
  EXPECT_FALSE(hasher_.verify("", encoded));
}

TEST_F(PasswordHasherTest, EveryHashHasItsOwnSalt) {
  const std::string first = hasher_.hash(kPassword);
  const std::string second = hasher_.hash(kPassword);
  EXPECT_NE(first, second);
  EXPECT_EQ(first.substr(0, 31), "$argon2id$v=19$m=19456,t=2,p=1$");
  EXPECT_EQ(first.size(), 31u + 22 + 1 + 43);
  EXPECT_TRUE(hasher_.verify(kPassword, second));
}

TEST_F(PasswordHasherTest, VerifiesHashesMadeWithOtherParameters) {
  const std::string stronger = libraryEncoded(3, 65536, 2);
  EXPECT_EQ(stronger,
            "$argon2id$v=19$m=65536,t=3,p=2$MDEyMzQ1Njc4OWFiY2RlZg$UqcjN8FEhR9C3aVPAePbwhjlawq6mqKGGOFCbIG7i8U");
  EXPECT_TRUE(hasher_.verify(kPassword, stronger));
  const std::string weaker = libraryEncoded(1, 19456, 1);
  EXPECT_TRUE(hasher_.verify(kPassword, weaker));
  EXPECT_FALSE(hasher_.verify("wrong password!", weaker));
}

TEST_F(PasswordHasherTest, AsksForARehashWhenTheParametersChanged) {
  EXPECT_FALSE(hasher_.needsRehash(hasher_.hash(kPassword)));
  EXPECT_TRUE(hasher_.needsRehash(libraryEncoded(1, 19456, 1)));
  const PasswordHasher raised(Argon2Parameters{65536, 3, 1});
  EXPECT_TRUE(raised.needsRehash(hasher_.hash(kPassword)));
  EXPECT_FALSE(raised.needsRehash(raised.hash(kPassword)));
  EXPECT_TRUE(hasher_.needsRehash("not a hash"));
}

TEST_F(PasswordHasherTest, RefusesUnreadableHashes) {
  const auto messageOf = [&](std::string_view encoded) -> std::string {
    try {
      (void)hasher_.verify(kPassword, encoded);
    } catch (const PasswordHashError& error) {
      return error.what();
    }
    return "accepted";
  };
  const std::string prefix = "stored password hash is not readable: ";
  EXPECT_EQ(messageOf(""), prefix + "not an argon2id version 19 PHC string");
  EXPECT_EQ(messageOf("$argon2i$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$gy5SuVm5Z7Vw7keB9se9p87QGcomaseB"),
            prefix + "not an argon2id version 19 PHC string");
  EXPECT_EQ(messageOf("$argon2id$v=19$m=19456,p=1,t=2$MDEyMzQ1Njc4OWFiY2RlZg$gy5SuVm5Z7Vw7keB9se9p87QGcomaseB"),
            prefix + "malformed parameters");
  EXPECT_EQ(messageOf("$argon2id$v=19$m=019456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$gy5SuVm5Z7Vw7keB9se9p87QGcomaseB"),
            prefix + "malformed parameters");
  EXPECT_EQ(messageOf("$argon2id$v=19$m=4194304,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$gy5SuVm5Z7Vw7keB9se9p87QGcomaseB"),
            prefix + "parameters out of range");
  EXPECT_EQ(messageOf("$argon2id$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg"), prefix + "no hash");
  EXPECT_EQ(messageOf("$argon2id$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$gy5S*Vm5"), prefix + "malformed base64");
  EXPECT_EQ(messageOf("$argon2id$v=19$m=19456,t=2,p=1$MDEy$gy5SuVm5Z7Vw7keB9se9p87QGcomaseB"), prefix + "salt length");
  EXPECT_EQ(messageOf("$argon2id$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$gy5SuVm5"), prefix + "hash length");
}

TEST_F(PasswordHasherTest, RefusesParametersBelowTheMinimum) {
  const auto messageOf = [](Argon2Parameters parameters) -> std::string {
    try {
      PasswordHasher hasher(parameters);
    } catch (const PasswordHashError& error) {
      return error.what();
    }
    return "accepted";
  };
  const std::string below = "Argon2id parameters below the minimum (m=19456 KiB, t=2, p=1)";
  EXPECT_EQ(messageOf({19455, 2, 1}), below);
  EXPECT_EQ(messageOf({19456, 1, 1}), below);
  EXPECT_EQ(messageOf({19456, 2, 0}), below);
  EXPECT_EQ(messageOf({19456, 17, 1}), "Argon2id parameters above the limits (m=1048576 KiB, t=16, p=16)");
}

TEST_F(PasswordHasherTest, VerifyNothingAcceptsAnyPassword) {
  hasher_.verifyNothing(kPassword);
  hasher_.verifyNothing("");
  SUCCEED();
}

}  // namespace
}  // namespace codepayload::accounts
