// pieceoftotal: a piece number followed by a total of the same width, both
// non-zero, the piece not above the total (e.g. "0305"). Checked in the
// reference's order: digits, even non-zero length, zero piece, zero total,
// piece above total.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

LintResult lintPieceoftotal(std::string_view component) {
  if (LintResult digits = support::requireDigits(component); !digits.ok()) return digits;
  std::size_t size = component.size();
  if (size == 0 || size % 2 != 0) return fail(reason::kInvalidLengthForPieceOfTotal, 0, size);
  std::size_t half = size / 2;
  std::string_view piece = component.substr(0, half);
  std::string_view total = component.substr(half);
  if (piece.find_first_not_of('0') == std::string_view::npos) return fail(reason::kZeroPieceNumber, 0, half);
  if (total.find_first_not_of('0') == std::string_view::npos) return fail(reason::kZeroTotalPieces, half, half);
  if (piece > total) return fail(reason::kPieceNumberExceedsTotal, 0, size);
  return kPass;
}

namespace {

// The sentence of each reason lintPieceoftotal reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    sentence::kNonDigitCharacter,
    {reason::kInvalidLengthForPieceOfTotal,
     "{part} must be a piece number followed by a total of the same number of digits"},
    {reason::kZeroPieceNumber, "the piece number {part} must not be zero"},
    {reason::kZeroTotalPieces, "the total {part} must not be zero"},
    {reason::kPieceNumberExceedsTotal, "the piece number is greater than the total in {part}"},
};

}  // namespace

ReasonSentences pieceoftotalSentences() { return kSentences; }

}  // namespace codepayload::lint
