#include "accounts/password_policy.h"

#include <gtest/gtest.h>

namespace codepayload::accounts {
namespace {

using Kind = PasswordProblem::Kind;

TEST(PasswordPolicy, AcceptsTwelveToOneHundredTwentyEightCharacters) {
  EXPECT_EQ(passwordProblem("abcdefghijkl"), std::nullopt);
  EXPECT_EQ(passwordProblem(std::string(128, 'x')), std::nullopt);
  EXPECT_EQ(passwordProblem("correct horse battery staple"), std::nullopt);  // spaces are characters
  // Characters, not bytes: 12 two-byte letters.
  EXPECT_EQ(passwordProblem("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                            "\xc3\xa9"),
            std::nullopt);
}

TEST(PasswordPolicy, NamesEachProblem) {
  EXPECT_EQ(passwordProblem("abcdefghijk"),
            (PasswordProblem{Kind::TooShort, "the password has 11 characters; it needs at least 12"}));
  EXPECT_EQ(passwordProblem(""),
            (PasswordProblem{Kind::TooShort, "the password has 0 characters; it needs at least 12"}));
  // 11 characters in 22 bytes is short.
  EXPECT_EQ(passwordProblem("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"),
            (PasswordProblem{Kind::TooShort, "the password has 11 characters; it needs at least 12"}));
  EXPECT_EQ(passwordProblem(std::string(129, 'x')),
            (PasswordProblem{Kind::TooLong, "the password has 129 characters; it may have at most 128"}));
  EXPECT_EQ(passwordProblem("abcdef\tghijkl"),
            (PasswordProblem{Kind::ControlCharacter,
                             "the password contains a control character (such as a tab or a line break)"}));
  EXPECT_EQ(passwordProblem("abcdefghijkl\x7f"),
            (PasswordProblem{Kind::ControlCharacter,
                             "the password contains a control character (such as a tab or a line break)"}));
  EXPECT_EQ(passwordProblem("abcdefghijkl\xc2\x85"),
            (PasswordProblem{Kind::ControlCharacter,
                             "the password contains a control character (such as a tab or a line break)"}));
  EXPECT_EQ(passwordProblem("abcdefghijkl\xff"),
            (PasswordProblem{Kind::NotUtf8, "the password is not valid UTF-8 text"}));
  EXPECT_EQ(passwordProblem("abc\xc0\xaf"), (PasswordProblem{Kind::NotUtf8, "the password is not valid UTF-8 text"}));
}

}  // namespace
}  // namespace codepayload::accounts
