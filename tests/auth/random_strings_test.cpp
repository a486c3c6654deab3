#include "auth/random_strings.h"

#include <gtest/gtest.h>

#include <set>

#include "auth/base64.h"

namespace codepayload::auth {
namespace {

TEST(RandomBase64Url, Has43CharactersFor32BytesAndDecodesBack) {
  const std::string text = randomBase64Url(32);
  EXPECT_EQ(text.size(), 43u);
  std::string bytes;
  ASSERT_TRUE(decodeBase64UrlStrict(text, bytes));
  EXPECT_EQ(bytes.size(), 32u);
  EXPECT_EQ(randomBase64Url(16).size(), 22u);
}

TEST(RandomBase64Url, NeverRepeatsInAThousandDraws) {
  std::set<std::string> seen;
  for (int draw = 0; draw < 1000; ++draw) seen.insert(randomBase64Url(16));
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(RandomBase62, UsesOnlyTheAlphabetAndEveryCharacterOfIt) {
  std::set<char> characters;
  for (int draw = 0; draw < 200; ++draw) {
    const std::string text = randomBase62(24);
    ASSERT_EQ(text.size(), 24u);
    for (const char character : text) {
      ASSERT_TRUE((character >= '0' && character <= '9') || (character >= 'A' && character <= 'Z') ||
                  (character >= 'a' && character <= 'z'))
          << text;
      characters.insert(character);
    }
  }
  EXPECT_EQ(characters.size(), 62u);  // 4800 draws: missing one has probability < 1e-30
  EXPECT_EQ(randomBase62(0), "");
}

}  // namespace
}  // namespace codepayload::auth
