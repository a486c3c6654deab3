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
    {"couponcode", lintCouponcode, couponcodeSentences},
    {"couponposoffer", lintCouponposoffer, couponposofferSentences},
    {"cset39", lintCset39, cset39Sentences},
    {"cset64", lintCset64, cset64Sentences},
    {"cset82", lintCset82, cset82Sentences},
    {"csetnumeric", lintCsetnumeric, csetnumericSentences},
    {"csum", lintCsum, csumSentences},
    {"csumalpha", lintCsumalpha, csumalphaSentences},
    {"gcppos1", lintGcppos1, gcppos1Sentences},
    {"gcppos2", lintGcppos2, gcppos2Sentences},
    {"hasnondigit", lintHasnondigit, hasnondigitSentences},
    {"hh", lintHh, hhSentences},
    {"hhmi", lintHhmi, hhmiSentences},
    {"hhmm", lintHhmi, hhmiSentences},
    {"hyphen", lintHyphen, hyphenSentences},
    {"iban", lintIban, ibanSentences},
    {"importeridx", lintImporteridx, importeridxSentences},
    {"iso3166", lintIso3166, iso3166Sentences},
    {"iso3166999", lintIso3166999, iso3166999Sentences},
    {"iso3166alpha2", lintIso3166alpha2, iso3166alpha2Sentences},
    {"iso3166list", lintIso3166list, iso3166listSentences},
    {"iso4217", lintIso4217, iso4217Sentences},
    {"iso5218", lintIso5218, iso5218Sentences},
    {"key", lintGcppos1, gcppos1Sentences},
    {"keyoff1", lintGcppos2, gcppos2Sentences},
    {"latitude", lintLatitude, latitudeSentences},
    {"longitude", lintLongitude, longitudeSentences},
    {"mediatype", lintMediatype, mediatypeSentences},
    {"mi", lintMi, miSentences},
    {"mmoptss", lintMmoptss, mmoptssSentences},
    {"nonzero", lintNonzero, nonzeroSentences},
    {"nozeroprefix", lintNozeroprefix, nozeroprefixSentences},
    {"packagetype", lintPackagetype, packagetypeSentences},
    {"pcenc", lintPcenc, pcencSentences},
    {"pieceoftotal", lintPieceoftotal, pieceoftotalSentences},
    {"posinseqslash", lintPosinseqslash, posinseqslashSentences},
    {"ss", lintSs, ssSentences},
    {"winding", lintWinding, windingSentences},
    {"yesno", lintYesno, yesnoSentences},
    {"yymmd0", lintYymmd0, yymmd0Sentences},
    {"yymmdd", lintYymmdd, yymmddSentences},
    {"yymmddhh", lintYymmddhh, yymmddhhSentences},
    {"yyyymmdd", lintYyyymmdd, yyyymmddSentences},
    {"zero", lintZero, zeroSentences},
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
