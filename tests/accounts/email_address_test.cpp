#include "accounts/email_address.h"

#include <gtest/gtest.h>

namespace codepayload::accounts {
namespace {

TEST(EmailAddress, AcceptsUsualAddresses) {
  EXPECT_EQ(emailProblem("ana@example.com"), std::nullopt);
  EXPECT_EQ(emailProblem("Ana.Lopez+dash@mail.example.co.uk"), std::nullopt);
  EXPECT_EQ(emailProblem("j\xc3\xb6rg@b\xc3\xbc"
                         "cher.de"),
            std::nullopt);
  EXPECT_EQ(emailProblem(std::string(240, 'a') + "@example.com"), std::nullopt);  // 252 bytes
}

TEST(EmailAddress, NamesEachProblem) {
  EXPECT_EQ(emailProblem(""), "the email address is empty");
  EXPECT_EQ(emailProblem(std::string(243, 'a') + "@example.com"), "the email address is longer than 254 bytes");
  EXPECT_EQ(emailProblem("ana@exa\xffmple.com"), "the email address is not valid UTF-8 text");
  EXPECT_EQ(emailProblem("ana @example.com"), "the email address contains a space or a control character");
  EXPECT_EQ(emailProblem("ana@example.com\n"), "the email address contains a space or a control character");
  EXPECT_EQ(emailProblem("moc.elpmaxe@\xE2\x80\xAE"
                         "ana"),
            "the email address must not contain a bidirectional control character (U+202E at byte offset 12)");
  EXPECT_EQ(emailProblem("ana\xE2\x80\x8F@example.com"),
            "the email address must not contain a bidirectional control character (U+200F at byte offset 3)");
  EXPECT_EQ(emailProblem("ana.example.com"), "the email address must contain exactly one '@'");
  EXPECT_EQ(emailProblem("ana@b@example.com"), "the email address must contain exactly one '@'");
  EXPECT_EQ(emailProblem("@example.com"), "the email address needs text before and after the '@'");
  EXPECT_EQ(emailProblem("ana@"), "the email address needs text before and after the '@'");
  EXPECT_EQ(emailProblem("ana@localhost"), "the email address's domain must contain a dot, not at its start or end");
  EXPECT_EQ(emailProblem("ana@.example"), "the email address's domain must contain a dot, not at its start or end");
  EXPECT_EQ(emailProblem("ana@example."), "the email address's domain must contain a dot, not at its start or end");
}

TEST(EmailAddress, KeyFoldsAsciiCaseOnly) {
  EXPECT_EQ(emailKey("Ana.Lopez@Example.COM"), "ana.lopez@example.com");
  EXPECT_EQ(emailKey("J\xc3\x96RG@example.com"), "j\xc3\x96rg@example.com");
}

}  // namespace
}  // namespace codepayload::accounts
