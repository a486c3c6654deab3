#include "common/bidi_controls.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace codepayload::common {
namespace {

TEST(BidiControls, EveryControlOfUax9AndNothingElse) {
  std::vector<char32_t> controls;
  for (char32_t codePoint = 0; codePoint <= 0x10FFFF; ++codePoint) {
    if (isBidiControl(codePoint)) controls.push_back(codePoint);
  }
  EXPECT_EQ(controls, (std::vector<char32_t>{0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066,
                                             0x2067, 0x2068, 0x2069}));
}

TEST(BidiControls, FindsTheFirstWithItsByteOffset) {
  EXPECT_EQ(findBidiControl(""), std::nullopt);
  EXPECT_EQ(findBidiControl("line 4 printer"), std::nullopt);
  // Right-to-left text, joiners and other invisible format characters are names' business.
  EXPECT_EQ(findBidiControl("\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D \xE2\x80\x8D \xE2\x80\x8B \xEF\xBB\xBF"), std::nullopt);
  EXPECT_EQ(findBidiControl("abc\xE2\x80\xAE"
                            "fdp.exe"),
            (BidiControlAt{0x202E, 3}));  // RLO
  EXPECT_EQ(findBidiControl("\xD8\x9C"
                            "a"),
            (BidiControlAt{0x061C, 0}));                                           // ALM
  EXPECT_EQ(findBidiControl("\xC3\xBC\xE2\x80\x8E"), (BidiControlAt{0x200E, 2}));  // LRM
  EXPECT_EQ(findBidiControl("a\xE2\x80\x8F"), (BidiControlAt{0x200F, 1}));         // RLM
  EXPECT_EQ(findBidiControl("ab\xE2\x81\xA6"
                            "c\xE2\x81\xA9"),
            (BidiControlAt{0x2066, 2}));                                   // LRI, PDI
  EXPECT_EQ(findBidiControl("\xE2\x81\xA9"), (BidiControlAt{0x2069, 0}));  // PDI
  EXPECT_EQ(findBidiControl("\xE2\x80\xAA"), (BidiControlAt{0x202A, 0}));  // LRE
  // Ill-formed UTF-8 ends the search: what follows it is not judged.
  EXPECT_EQ(findBidiControl("a\xFF\xE2\x80\xAE"), std::nullopt);
  EXPECT_EQ(findBidiControl("\xE2\x80\xAE\xFF"), (BidiControlAt{0x202E, 0}));
}

TEST(BidiControls, TheProblemNamesTheCodePointAndWhereItIs) {
  EXPECT_EQ(bidiControlProblem("a client name", BidiControlAt{0x202E, 4}),
            "a client name must not contain a bidirectional control character (U+202E at byte offset 4)");
  EXPECT_EQ(bidiControlProblem("the email address", BidiControlAt{0x061C, 0}),
            "the email address must not contain a bidirectional control character (U+061C at byte offset 0)");
}

}  // namespace
}  // namespace codepayload::common
