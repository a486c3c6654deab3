#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintPieceoftotal{"pieceoftotal"};

TEST(LintPieceoftotal, AcceptsPiecesUpToTheTotal) {
  expectRows(lintPieceoftotal, {
                                   pass("11"),
                                   pass("13"),
                                   pass("99"),
                                   pass("0103"),
                                   pass("0303"),
                                   pass("9899"),
                                   pass("001001"),
                                   pass("998999"),
                               });
}

TEST(LintPieceoftotal, ReportsNonDigitsFirst) {
  expectRows(lintPieceoftotal, {
                                   bad("x5555555", "nonDigitCharacter", 0, 1),
                                   bad("5555x555", "nonDigitCharacter", 4, 1),
                                   bad("5555555x", "nonDigitCharacter", 7, 1),
                                   bad("1x1", "nonDigitCharacter", 1, 1),
                               });
}

TEST(LintPieceoftotal, ReportsEmptyAndOddLengthsAsAWhole) {
  expectRows(lintPieceoftotal, {
                                   bad("", "invalidLengthForPieceOfTotal", 0, 0),
                                   bad("1", "invalidLengthForPieceOfTotal", 0, 1),
                                   bad("111", "invalidLengthForPieceOfTotal", 0, 3),
                                   bad("11111", "invalidLengthForPieceOfTotal", 0, 5),
                               });
}

TEST(LintPieceoftotal, ReportsZeroPieceOrTotalOverThatHalf) {
  expectRows(lintPieceoftotal, {
                                   bad("01", "zeroPieceNumber", 0, 1),
                                   bad("00", "zeroPieceNumber", 0, 1),
                                   bad("10", "zeroTotalPieces", 1, 1),
                                   bad("0000", "zeroPieceNumber", 0, 2),
                                   bad("0100", "zeroTotalPieces", 2, 2),
                                   bad("000001", "zeroPieceNumber", 0, 3),
                                   bad("001000", "zeroTotalPieces", 3, 3),
                               });
}

TEST(LintPieceoftotal, ReportsAPieceAboveTheTotalAsAWhole) {
  expectRows(lintPieceoftotal, {
                                   bad("21", "pieceNumberExceedsTotal", 0, 2),
                                   bad("0908", "pieceNumberExceedsTotal", 0, 4),
                                   bad("1009", "pieceNumberExceedsTotal", 0, 4),
                                   bad("100099", "pieceNumberExceedsTotal", 0, 6),
                                   bad("999998", "pieceNumberExceedsTotal", 0, 6),
                               });
}

// The reason tokens lintPieceoftotal publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintPieceoftotal, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintPieceoftotal.publishedReasons(),
            (Tokens{"nonDigitCharacter", "invalidLengthForPieceOfTotal", "zeroPieceNumber", "zeroTotalPieces",
                    "pieceNumberExceedsTotal"}));
}

}  // namespace
}  // namespace codepayload::lint::test
