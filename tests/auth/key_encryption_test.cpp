#include "auth/key_encryption.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <sys/stat.h>

#include <array>
#include <fstream>
#include <string>

#include "auth/openssl_handles.h"
#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

using testing::TempDir;

// The 32 bytes 00 01 ... 1f.
std::string countingBytes() {
  std::string bytes;
  for (int index = 0; index < 32; ++index) bytes.push_back(static_cast<char>(index));
  return bytes;
}

std::string fromHex(std::string_view hex) {
  std::string bytes;
  for (std::size_t index = 0; index + 1 < hex.size(); index += 2) {
    bytes.push_back(static_cast<char>(std::stoi(std::string(hex.substr(index, 2)), nullptr, 16)));
  }
  return bytes;
}

void writeKeyFile(const std::filesystem::path& file, const std::string& bytes, ::mode_t mode) {
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good());
  }
  ASSERT_EQ(::chmod(file.c_str(), mode), 0);
}

SealedValueError::Kind refusalKind(const KeyEncryptionKey& key, std::string_view sealed, std::string_view associated) {
  try {
    key.open(sealed, associated);
  } catch (const SealedValueError& error) {
    return error.kind;
  }
  ADD_FAILURE() << "a sealed value opened that should not have";
  return SealedValueError::Kind::UnknownVersion;
}

std::string refusalMessage(const KeyEncryptionKey& key, std::string_view sealed, std::string_view associated,
                           std::string_view what) {
  try {
    key.open(sealed, associated, what);
  } catch (const SealedValueError& error) {
    return error.what();
  }
  return "(opened)";
}

std::string loadRefusal(const std::filesystem::path& file) {
  try {
    KeyEncryptionKey::load(file);
  } catch (const KeyEncryptionKeyError& error) {
    return error.what();
  }
  return "(loaded)";
}

// Decrypts the format by hand with a given AES key: version | nonce | ciphertext | tag,
// the version byte then the caller's associated data authenticated.
bool openByHand(const std::string& aesKey, const std::string& sealed, const std::string& associated,
                std::string& plaintext) {
  if (sealed.size() < 29 || sealed[0] != '\x01') return false;
  const auto* bytes = reinterpret_cast<const unsigned char*>(sealed.data());
  const std::size_t size = sealed.size() - 29;
  std::array<unsigned char, 16> tag{};
  std::copy_n(bytes + 13 + size, 16, tag.begin());
  const std::string authenticated = "\x01" + associated;
  plaintext.assign(size, '\0');
  auto* out = reinterpret_cast<unsigned char*>(plaintext.data());
  const openssl::CipherContext context(EVP_CIPHER_CTX_new());
  int length = 0;
  return EVP_DecryptInit_ex2(context.get(), EVP_aes_256_gcm(), reinterpret_cast<const unsigned char*>(aesKey.data()),
                             bytes + 1, nullptr) == 1 &&
         EVP_DecryptUpdate(context.get(), nullptr, &length,
                           reinterpret_cast<const unsigned char*>(authenticated.data()),
                           static_cast<int>(authenticated.size())) == 1 &&
         EVP_DecryptUpdate(context.get(), out, &length, bytes + 13, static_cast<int>(size)) == 1 &&
         EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, 16, tag.data()) == 1 &&
         EVP_DecryptFinal_ex(context.get(), out + size, &length) == 1;
}

// HKDF-SHA-256 of the key material, info "codepayload key-encryption v1", no salt, computed with
//   openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt hexkey:<material>
//     -kdfopt "info:codepayload key-encryption v1" HKDF
// (and the same from Python's cryptography HKDF).
constexpr std::string_view kDerivedFromCounting = "86d3bc1fdb0a3043fcdc2af9c2b8815500db4f55ed719eb38c63a61a703ecac9";
constexpr std::string_view kDerivedFromCountingAndNewline =
    "57a5482e0f565f7968fca3973e7ea01a47fd24e1f35fcea830ae2addb05877ee";

TEST(KeyEncryption, RoundTripsEmptyShortAndLargeBinaryPlaintext) {
  const KeyEncryptionKey key = KeyEncryptionKey::fromBytes(countingBytes());
  std::string large;
  for (int index = 0; index < 10 * 1024; ++index) large.push_back(static_cast<char>((index * 7 + 3) % 256));
  for (const std::string& plaintext : {std::string(), std::string("k"), std::string("a\0b\xff", 4), large}) {
    const std::string sealed = key.seal(plaintext, "signing_keys/7");
    EXPECT_EQ(sealed.size(), 1 + 12 + plaintext.size() + 16);
    EXPECT_EQ(sealed[0], '\x01');
    EXPECT_EQ(key.open(sealed, "signing_keys/7"), plaintext);
  }
}

TEST(KeyEncryption, RoundTripsWithEmptyAssociatedData) {
  const KeyEncryptionKey key = KeyEncryptionKey::fromBytes(countingBytes());
  EXPECT_EQ(key.open(key.seal("pepper", ""), ""), "pepper");
  EXPECT_EQ(refusalKind(key, key.seal("pepper", ""), "x"), SealedValueError::Kind::NotAuthentic);
}

TEST(KeyEncryption, TwoSealsOfTheSameValueDiffer) {
  const KeyEncryptionKey key = KeyEncryptionKey::fromBytes(countingBytes());
  const std::string first = key.seal("same secret", "row");
  const std::string second = key.seal("same secret", "row");
  EXPECT_NE(first.substr(1, 12), second.substr(1, 12));
  EXPECT_NE(first, second);
}

TEST(KeyEncryption, EveryFlippedByteRefuses) {
  const KeyEncryptionKey key = KeyEncryptionKey::fromBytes(countingBytes());
  const std::string sealed = key.seal("a private key", "signing_keys/7");
  for (std::size_t position = 0; position < sealed.size(); ++position) {
    for (const unsigned char flip : {0x01, 0x80}) {
      std::string altered = sealed;
      altered[position] = static_cast<char>(static_cast<unsigned char>(altered[position]) ^ flip);
      EXPECT_EQ(refusalKind(key, altered, "signing_keys/7"),
                position == 0 ? SealedValueError::Kind::UnknownVersion : SealedValueError::Kind::NotAuthentic)
          << "byte " << position << " flipped with " << int{flip};
    }
  }
}

TEST(KeyEncryption, TruncatedOrExtendedRefuses) {
  const KeyEncryptionKey key = KeyEncryptionKey::fromBytes(countingBytes());
  const std::string sealed = key.seal("a private key", "row");
  EXPECT_EQ(refusalKind(key, sealed.substr(0, sealed.size() - 1), "row"), SealedValueError::Kind::NotAuthentic);
  EXPECT_EQ(refusalKind(key, sealed + '\0', "row"), SealedValueError::Kind::NotAuthentic);
  EXPECT_EQ(refusalKind(key, sealed.substr(0, 29), "row"), SealedValueError::Kind::NotAuthentic);
  EXPECT_EQ(refusalKind(key, sealed.substr(0, 28), "row"), SealedValueError::Kind::TooShort);
  EXPECT_EQ(refusalKind(key, "", "row"), SealedValueError::Kind::TooShort);
}

TEST(KeyEncryption, RefusalsSayWhatAndWhyWithoutSecrets) {
  const KeyEncryptionKey key = KeyEncryptionKey::fromBytes(countingBytes());
  const std::string sealed = key.seal("PLAINTEXT", "signing_keys/7");
  EXPECT_EQ(refusalMessage(key, sealed, "signing_keys/8", "signing key 7"),
            "cannot decrypt signing key 7: the key-encryption key does not match, or the value was altered");
  EXPECT_EQ(refusalMessage(key, std::string(28, '\x01'), "row", "the pepper"),
            "cannot decrypt the pepper: it holds 28 bytes, fewer than the 29 of any sealed value");
  EXPECT_EQ(refusalMessage(key, "", "row", "the pepper"),
            "cannot decrypt the pepper: it holds 0 bytes, fewer than the 29 of any sealed value");
  EXPECT_EQ(refusalMessage(key, "\x02" + sealed.substr(1), "row", "the pepper"),
            "cannot decrypt the pepper: its format version is 2, and this build reads only version 1");
  try {
    key.open(sealed, "x");
    ADD_FAILURE() << "opened with the wrong associated data";
  } catch (const SealedValueError& error) {
    EXPECT_EQ(std::string(error.what()),
              "cannot decrypt a sealed value: the key-encryption key does not match, or the value was altered");
  }
}

TEST(KeyEncryption, WrongAssociatedDataRefuses) {
  const KeyEncryptionKey key = KeyEncryptionKey::fromBytes(countingBytes());
  const std::string sealed = key.seal("a private key", "signing_keys/7");
  EXPECT_EQ(refusalKind(key, sealed, "signing_keys/8"), SealedValueError::Kind::NotAuthentic);
  EXPECT_EQ(refusalKind(key, sealed, "signing_keys/7 "), SealedValueError::Kind::NotAuthentic);
  EXPECT_EQ(refusalKind(key, sealed, ""), SealedValueError::Kind::NotAuthentic);
}

TEST(KeyEncryption, ADifferentKeyRefuses) {
  const KeyEncryptionKey key = KeyEncryptionKey::fromBytes(countingBytes());
  std::string otherMaterial = countingBytes();
  otherMaterial[31] ^= 1;
  const KeyEncryptionKey other = KeyEncryptionKey::fromBytes(otherMaterial);
  EXPECT_EQ(refusalKind(other, key.seal("a private key", "row"), "row"), SealedValueError::Kind::NotAuthentic);
}

TEST(KeyEncryption, ACopyOpensWhatTheOriginalSealed) {
  const KeyEncryptionKey original = KeyEncryptionKey::fromBytes(countingBytes());
  const KeyEncryptionKey copy = original;
  EXPECT_EQ(copy.open(original.seal("secret", "row"), "row"), "secret");
}

TEST(KeyEncryption, RefusesKeyMaterialShorterThan32Bytes) {
  EXPECT_THROW(KeyEncryptionKey::fromBytes(std::string(31, 'k')), KeyEncryptionKeyError);
  EXPECT_NO_THROW(KeyEncryptionKey::fromBytes(std::string(32, 'k')));
  EXPECT_NO_THROW(KeyEncryptionKey::fromBytes(std::string(100, 'k')));
}

// Pins the derivation (HKDF-SHA-256 of the file's bytes, the info string) and
// the format: a value sealed by Python's AESGCM under the pinned key opens,
// and a value sealed here opens by hand under the pinned key.
TEST(KeyEncryption, DerivesTheKeyWithHkdfSha256AndPinnedInfo) {
  const KeyEncryptionKey key = KeyEncryptionKey::fromBytes(countingBytes());
  // AESGCM(derived).encrypt(nonce a0..ab, b"pinned plaintext", b"\x01signing_keys/7"), after 01 | nonce.
  const std::string pinned = fromHex(
      "01a0a1a2a3a4a5a6a7a8a9aaab"
      "ef74e180f150c111f6ead59998783210e123a5c9a17c66904d6bd0cdbab2b696");
  EXPECT_EQ(key.open(pinned, "signing_keys/7"), "pinned plaintext");

  std::string plaintext;
  EXPECT_TRUE(openByHand(fromHex(kDerivedFromCounting), key.seal("by hand", "row 1"), "row 1", plaintext));
  EXPECT_EQ(plaintext, "by hand");
  // The raw material is not the AES key.
  EXPECT_FALSE(openByHand(countingBytes(), key.seal("by hand", "row 1"), "row 1", plaintext));
}

TEST(KeyEncryption, LoadsAKeyFileAsItsBytes) {
  TempDir dir;
  const auto file = dir.path() / "kek";
  writeKeyFile(file, countingBytes(), 0600);
  const KeyEncryptionKey loaded = KeyEncryptionKey::load(file);
  EXPECT_EQ(KeyEncryptionKey::fromBytes(countingBytes()).open(loaded.seal("secret", "row"), "row"), "secret");
}

TEST(KeyEncryption, ATrailingNewlineIsPartOfTheKeyMaterial) {
  TempDir dir;
  const auto plain = dir.path() / "kek";
  const auto withNewline = dir.path() / "kek-newline";
  writeKeyFile(plain, countingBytes(), 0600);
  writeKeyFile(withNewline, countingBytes() + "\n", 0600);
  const KeyEncryptionKey first = KeyEncryptionKey::load(plain);
  const KeyEncryptionKey second = KeyEncryptionKey::load(withNewline);
  EXPECT_EQ(refusalKind(second, first.seal("secret", "row"), "row"), SealedValueError::Kind::NotAuthentic);
  std::string plaintext;
  EXPECT_TRUE(openByHand(fromHex(kDerivedFromCountingAndNewline), second.seal("secret", "row"), "row", plaintext));
  EXPECT_EQ(plaintext, "secret");
}

TEST(KeyEncryption, RefusesAKeyFileOf31Bytes) {
  TempDir dir;
  const auto file = dir.path() / "kek";
  writeKeyFile(file, std::string(31, 'k'), 0600);
  EXPECT_EQ(loadRefusal(file), "key-encryption key " + file.string() +
                                   " holds 31 bytes; a key-encryption key is at least 32 random bytes, e.g. "
                                   "(umask 077; head -c 32 /dev/urandom > " +
                                   file.string() + ")");
}

TEST(KeyEncryption, RefusesAKeyFileGroupOrOthersCanAccess) {
  TempDir dir;
  const auto file = dir.path() / "kek";
  writeKeyFile(file, countingBytes(), 0644);
  EXPECT_EQ(loadRefusal(file), "key-encryption key " + file.string() +
                                   " has mode 0644, which lets group or others access it; run chmod 600 " +
                                   file.string());
  writeKeyFile(file, countingBytes(), 0620);
  EXPECT_EQ(loadRefusal(file), "key-encryption key " + file.string() +
                                   " has mode 0620, which lets group or others access it; run chmod 600 " +
                                   file.string());
  writeKeyFile(file, countingBytes(), 0400);
  EXPECT_NO_THROW(KeyEncryptionKey::load(file));
}

TEST(KeyEncryption, RefusesAMissingKeyFile) {
  TempDir dir;
  const auto file = dir.path() / "kek";
  EXPECT_EQ(loadRefusal(file), "key-encryption key: cannot open " + file.string() +
                                   ": No such file or directory; this service must be able to read it (a new "
                                   "installation creates it with (umask 077; head -c 32 /dev/urandom > " +
                                   file.string() + "))");
}

TEST(KeyEncryption, TheCheckMatchesOnlyItsOwnKey) {
  const KeyEncryptionKey key = KeyEncryptionKey::fromBytes(countingBytes());
  const KeyEncryptionKey other = KeyEncryptionKey::fromBytes(std::string(32, 'o'));
  const std::string check = key.sealCheck();
  EXPECT_TRUE(key.matchesCheck(check));
  EXPECT_TRUE(KeyEncryptionKey::fromBytes(countingBytes()).matchesCheck(check));
  EXPECT_FALSE(other.matchesCheck(check));
  EXPECT_TRUE(other.matchesCheck(other.sealCheck()));
  // A value sealed for a row is not a check, even if moved into the check's place.
  EXPECT_FALSE(key.matchesCheck(key.seal("codepayload key-encryption key check", "row")));
  // A damaged check is not reported as a wrong key.
  EXPECT_THROW(key.matchesCheck(check.substr(0, 20)), SealedValueError);
  EXPECT_THROW(key.matchesCheck("\x02" + check.substr(1)), SealedValueError);
}

}  // namespace
}  // namespace codepayload::auth
