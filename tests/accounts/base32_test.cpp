#include "accounts/base32.h"

#include <gtest/gtest.h>

namespace codepayload::accounts {
namespace {

// RFC 4648 section 10, without the padding.
TEST(Base32, EncodesTheRfc4648Vectors) {
  EXPECT_EQ(encodeBase32(""), "");
  EXPECT_EQ(encodeBase32("f"), "MY");
  EXPECT_EQ(encodeBase32("fo"), "MZXQ");
  EXPECT_EQ(encodeBase32("foo"), "MZXW6");
  EXPECT_EQ(encodeBase32("foob"), "MZXW6YQ");
  EXPECT_EQ(encodeBase32("fooba"), "MZXW6YTB");
  EXPECT_EQ(encodeBase32("foobar"), "MZXW6YTBOI");
  EXPECT_EQ(encodeBase32("12345678901234567890"), "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
}

TEST(Base32, DecodesWhatItEncodes) {
  for (const std::string bytes : {"", "f", "fo", "foo", "foob", "fooba", "foobar", "\x00\xff\x10"}) {
    EXPECT_EQ(decodeBase32(encodeBase32(bytes)), bytes);
  }
  EXPECT_EQ(decodeBase32("mzxw6ytboi"), "foobar");
}

TEST(Base32, RefusesWhatIsNotCanonical) {
  EXPECT_EQ(decodeBase32("MY======"), std::nullopt);  // padding
  EXPECT_EQ(decodeBase32("M"), std::nullopt);         // no whole byte
  EXPECT_EQ(decodeBase32("MZX"), std::nullopt);
  EXPECT_EQ(decodeBase32("MZXW6Y"), std::nullopt);
  EXPECT_EQ(decodeBase32("MZ"), std::nullopt);  // unused bits set ("f" is MY)
  EXPECT_EQ(decodeBase32("MZ1Q"), std::nullopt);
  EXPECT_EQ(decodeBase32("MZ XW"), std::nullopt);
}

}  // namespace
}  // namespace codepayload::accounts
