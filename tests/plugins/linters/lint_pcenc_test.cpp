#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintPcenc{"pcenc"};

TEST(LintPcenc, AcceptsWellFormedPercentSequences) {
  expectRows(lintPcenc, {
                            pass(""),
                            pass("A"),
                            pass("%00"),
                            pass("%FF"),
                            pass("%Ff"),
                            pass("%ff"),
                            pass("ABC%20XYZ"),
                            pass("%25%25"),
                            pass("ABCDEFGHIJKLMNOPQRSTUVWXYZ%00+12345"),
                        });
}

TEST(LintPcenc, ReportsABadSequenceOverItsThreeCharacters) {
  expectRows(lintPcenc, {
                            bad("%fg", "invalidPercentSequence", 0, 3),
                            bad("%gf", "invalidPercentSequence", 0, 3),
                            bad("ABC%fgXYZ", "invalidPercentSequence", 3, 3),
                            bad("ABC%gXYZ", "invalidPercentSequence", 3, 3),
                            bad("%20%%20", "invalidPercentSequence", 3, 3),
                        });
}

TEST(LintPcenc, ReportsAShortSequenceToTheEnd) {
  expectRows(lintPcenc, {
                            bad("%", "invalidPercentSequence", 0, 1),
                            bad("%g", "invalidPercentSequence", 0, 2),
                            bad("%2", "invalidPercentSequence", 0, 2),
                            bad("ABC%g", "invalidPercentSequence", 3, 2),
                            bad("%20%", "invalidPercentSequence", 3, 1),
                        });
}

// The reason tokens lintPcenc publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintPcenc, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintPcenc.publishedReasons(), (Tokens{"invalidPercentSequence"}));
}

}  // namespace
}  // namespace codepayload::lint::test
