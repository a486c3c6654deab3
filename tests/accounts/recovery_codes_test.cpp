#include "accounts/recovery_codes.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace codepayload::accounts {
namespace {

TEST(RecoveryCodes, TenCodesShownOnceAndStoredAsDigests) {
  const RecoveryCodes codes = newRecoveryCodes();
  ASSERT_EQ(codes.codes.size(), 10u);
  ASSERT_EQ(codes.digests.size(), 10u);
  const std::regex shape("[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}");
  for (std::size_t index = 0; index < codes.codes.size(); ++index) {
    EXPECT_TRUE(std::regex_match(codes.codes[index], shape)) << codes.codes[index];
    EXPECT_EQ(recoveryCodeDigest(codes.codes[index]), codes.digests[index]);
    EXPECT_EQ(codes.digests[index].size(), 64u);
    EXPECT_EQ(codes.digests[index].find(codes.codes[index].substr(0, 4)), std::string::npos);
  }
  EXPECT_EQ(std::set<std::string>(codes.codes.begin(), codes.codes.end()).size(), 10u);
  EXPECT_EQ(newRecoveryCodes(3).codes.size(), 3u);
}

TEST(RecoveryCodes, DigestOfATypedCode) {
  // SHA-256("ABCDEFGHIJKLMNOP").
  const std::string expected = "e7e8b89c2721d290cc5f55425491ecd6831355e91063f20b39c22f9ec6a71f91";
  EXPECT_EQ(recoveryCodeDigest("abcd-efgh-ijkl-mnop"), recoveryCodeDigest("ABCDEFGHIJKLMNOP"));
  EXPECT_EQ(recoveryCodeDigest(" abcd efgh-IJKL-mnop "), recoveryCodeDigest("ABCDEFGHIJKLMNOP"));
  EXPECT_EQ(*recoveryCodeDigest("abcd-efgh-ijkl-mnop"), expected);
  EXPECT_EQ(recoveryCodeDigest("abcd-efgh-ijkl-mno"), std::nullopt);
  EXPECT_EQ(recoveryCodeDigest("abcd-efgh-ijkl-mnopq"), std::nullopt);
  EXPECT_EQ(recoveryCodeDigest("abcd-efgh-ijkl-mno1"), std::nullopt);
  EXPECT_EQ(recoveryCodeDigest(""), std::nullopt);
}

}  // namespace
}  // namespace codepayload::accounts
