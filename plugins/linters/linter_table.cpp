// The registry of built-in linters: one row per dictionary name, sorted by
// name. Renamed forms are extra rows pointing at the same function: `hhmm`
// (hhmi before 2025-01-30), `key` (gcppos1 before 2026-01-27) and `keyoff1`
// (gcppos2 before 2026-01-27). `latlong` is deliberately absent: it is a Lua
// linter (rules/linters/latlong.lua). The csetnumeric/cset82/cset39/cset64
// rows are the engine's character-set checks; no dictionary names them.
#include <algorithm>
#include <iterator>

#include "plugins/linters/linters.h"

namespace codepayload::lint {

namespace {

constexpr LinterEntry kLinters[] = {
    {"couponcode", lintCouponcode},
    {"couponposoffer", lintCouponposoffer},
    {"cset39", lintCset39},
    {"cset64", lintCset64},
    {"cset82", lintCset82},
    {"csetnumeric", lintCsetnumeric},
    {"csum", lintCsum},
    {"csumalpha", lintCsumalpha},
    {"gcppos1", lintGcppos1},
    {"gcppos2", lintGcppos2},
    {"hasnondigit", lintHasnondigit},
    {"hh", lintHh},
    {"hhmi", lintHhmi},
    {"hhmm", lintHhmi},
    {"hyphen", lintHyphen},
    {"iban", lintIban},
    {"importeridx", lintImporteridx},
    {"iso3166", lintIso3166},
    {"iso3166999", lintIso3166999},
    {"iso3166alpha2", lintIso3166alpha2},
    {"iso3166list", lintIso3166list},
    {"iso4217", lintIso4217},
    {"iso5218", lintIso5218},
    {"key", lintGcppos1},
    {"keyoff1", lintGcppos2},
    {"latitude", lintLatitude},
    {"longitude", lintLongitude},
    {"mediatype", lintMediatype},
    {"mi", lintMi},
    {"mmoptss", lintMmoptss},
    {"nonzero", lintNonzero},
    {"nozeroprefix", lintNozeroprefix},
    {"packagetype", lintPackagetype},
    {"pcenc", lintPcenc},
    {"pieceoftotal", lintPieceoftotal},
    {"posinseqslash", lintPosinseqslash},
    {"ss", lintSs},
    {"winding", lintWinding},
    {"yesno", lintYesno},
    {"yymmd0", lintYymmd0},
    {"yymmdd", lintYymmdd},
    {"yymmddhh", lintYymmddhh},
    {"yyyymmdd", lintYyyymmdd},
    {"zero", lintZero},
};

constexpr bool namesStrictlyAscending() {
  return std::adjacent_find(std::begin(kLinters), std::end(kLinters), [](const LinterEntry& a, const LinterEntry& b) {
           return !(a.name < b.name);
         }) == std::end(kLinters);
}
static_assert(namesStrictlyAscending(), "kLinters must be sorted by name without duplicates");

}  // namespace

LinterTable builtinLinters() { return {std::begin(kLinters), std::end(kLinters)}; }

}  // namespace codepayload::lint
