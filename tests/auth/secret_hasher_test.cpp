#include "auth/secret_hasher.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>

#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

using testing::TempDir;

std::string pepperBytes() {
  std::string pepper;
  for (int index = 0; index < 32; ++index) pepper.push_back(static_cast<char>(index));
  return pepper;
}

std::string hex(const SecretDigest& digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (const unsigned char byte : digest) {
    text.push_back(kHex[byte >> 4]);
    text.push_back(kHex[byte & 0x0F]);
  }
  return text;
}

TEST(SecretHasher, ComputesHmacSha256WithThePepper) {
  const SecretHasher hasher(pepperBytes());
  // Independent values: Python's hmac.new(bytes(range(32)), msg, sha256).
  EXPECT_EQ(hex(hasher.digest("abc")), "f0133729c4163dede81e21cd47839256da58171238c8a0d874397c73b14e1e47");
  EXPECT_EQ(hex(hasher.digest("")), "d38b42096d80f45f826b44a9d5607de72496a415d3f4a1a8c88e3bb9da8dc1cb");
}

TEST(SecretHasher, ComparesDigests) {
  const SecretHasher hasher(pepperBytes());
  EXPECT_TRUE(SecretHasher::equal(hasher.digest("abc"), hasher.digest("abc")));
  EXPECT_FALSE(SecretHasher::equal(hasher.digest("abc"), hasher.digest("abd")));
  SecretDigest lastBitDiffers = hasher.digest("abc");
  lastBitDiffers[31] ^= 1;
  EXPECT_FALSE(SecretHasher::equal(hasher.digest("abc"), lastBitDiffers));
}

TEST(SecretHasher, RefusesAPepperOfTheWrongSize) {
  EXPECT_THROW(SecretHasher(std::string(31, 'p')), PepperError);
  EXPECT_THROW(SecretHasher(std::string(33, 'p')), PepperError);
}

TEST(SecretHasher, CreatesThePepperFileOnceWithMode0600) {
  TempDir dir;
  const auto file = dir.path() / "pepper";
  const SecretHasher first = SecretHasher::loadOrCreate(file);
  struct stat status {};
  ASSERT_EQ(::stat(file.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u);
  EXPECT_EQ(status.st_size, 32);
  const std::string pepper = testing::readWholeFile(file);
  const SecretHasher second = SecretHasher::loadOrCreate(file);
  EXPECT_EQ(testing::readWholeFile(file), pepper);
  EXPECT_TRUE(SecretHasher::equal(first.digest("secret"), second.digest("secret")));
  EXPECT_TRUE(SecretHasher::equal(first.digest("secret"), SecretHasher(pepper).digest("secret")));
  // No temporary file is left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1);
}

TEST(SecretHasher, TwoDataDirectoriesGetDifferentPeppers) {
  TempDir first;
  TempDir second;
  const SecretHasher a = SecretHasher::loadOrCreate(first.path() / "pepper");
  const SecretHasher b = SecretHasher::loadOrCreate(second.path() / "pepper");
  EXPECT_FALSE(SecretHasher::equal(a.digest("secret"), b.digest("secret")));
}

TEST(SecretHasher, RefusesAPepperFileReadableByOthers) {
  TempDir dir;
  const auto file = dir.path() / "pepper";
  SecretHasher::loadOrCreate(file);
  ASSERT_EQ(::chmod(file.c_str(), 0644), 0);
  try {
    SecretHasher::loadOrCreate(file);
    FAIL() << "a world-readable pepper was accepted";
  } catch (const PepperError& error) {
    EXPECT_EQ(std::string(error.what()),
              "client secret pepper: " + file.string() + " is accessible to group or others; it must have mode 0600");
  }
}

TEST(SecretHasher, RefusesAPepperFileOfTheWrongSize) {
  TempDir dir;
  const auto file = dir.path() / "pepper";
  {
    std::ofstream out(file);
    out << "short";
  }
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  try {
    SecretHasher::loadOrCreate(file);
    FAIL() << "a 5-byte pepper was accepted";
  } catch (const PepperError& error) {
    EXPECT_EQ(std::string(error.what()),
              "client secret pepper " + file.string() + " has 5 bytes; it must have exactly 32");
  }
}

TEST(SecretHasher, ReportsAMissingDirectory) {
  TempDir dir;
  const auto file = dir.path() / "missing" / "pepper";
  EXPECT_THROW(SecretHasher::loadOrCreate(file), PepperError);
}

}  // namespace
}  // namespace codepayload::auth
