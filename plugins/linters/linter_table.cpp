// The registry of built-in linters: one row per dictionary name, sorted by
// name. Renamed forms are extra rows pointing at the same function: `hhmm`
// (hhmi before 2025-01-30), `key` (gcppos1 before 2026-01-27) and `keyoff1`
// (gcppos2 before 2026-01-27). `latlong` is deliberately absent: it is a Lua
// linter (rules/linters/latlong.lua). The csetnumeric/cset82/cset39/cset64
// rows are the engine's character-set checks; no dictionary names them.
//
// No header lists the linter functions: each is declared here, above the
// table in the order of the rows, so adding a linter touches its
// lint_<name>.cpp, its test and this file alone. The tests reach a linter
// through this table by its name, which proves its row.
#include <algorithm>
#include <iterator>

#include "plugins/linters/linters.h"

namespace codepayload::lint {

// Each linter (lint_<name>.cpp) and the sentences of the reasons it reports,
// in the order of the rows.
LintResult lintCouponcode(std::string_view component);
ReasonSentences couponcodeSentences();
LintResult lintCouponposoffer(std::string_view component);
ReasonSentences couponposofferSentences();
LintResult lintCset39(std::string_view component);
ReasonSentences cset39Sentences();
LintResult lintCset64(std::string_view component);
ReasonSentences cset64Sentences();
LintResult lintCset82(std::string_view component);
ReasonSentences cset82Sentences();
LintResult lintCsetnumeric(std::string_view component);
ReasonSentences csetnumericSentences();
LintResult lintCsum(std::string_view component);
ReasonSentences csumSentences();
LintResult lintCsumalpha(std::string_view component);
ReasonSentences csumalphaSentences();
LintResult lintGcppos1(std::string_view component);
ReasonSentences gcppos1Sentences();
LintResult lintGcppos2(std::string_view component);
ReasonSentences gcppos2Sentences();
LintResult lintHasnondigit(std::string_view component);
ReasonSentences hasnondigitSentences();
LintResult lintHh(std::string_view component);
ReasonSentences hhSentences();
LintResult lintHhmi(std::string_view component);
ReasonSentences hhmiSentences();
LintResult lintHyphen(std::string_view component);
ReasonSentences hyphenSentences();
LintResult lintIban(std::string_view component);
ReasonSentences ibanSentences();
LintResult lintImporteridx(std::string_view component);
ReasonSentences importeridxSentences();
LintResult lintIso3166(std::string_view component);
ReasonSentences iso3166Sentences();
LintResult lintIso3166999(std::string_view component);
ReasonSentences iso3166999Sentences();
LintResult lintIso3166alpha2(std::string_view component);
ReasonSentences iso3166alpha2Sentences();
LintResult lintIso3166list(std::string_view component);
ReasonSentences iso3166listSentences();
LintResult lintIso4217(std::string_view component);
ReasonSentences iso4217Sentences();
LintResult lintIso5218(std::string_view component);
ReasonSentences iso5218Sentences();
LintResult lintLatitude(std::string_view component);
ReasonSentences latitudeSentences();
LintResult lintLongitude(std::string_view component);
ReasonSentences longitudeSentences();
LintResult lintMediatype(std::string_view component);
ReasonSentences mediatypeSentences();
LintResult lintMi(std::string_view component);
ReasonSentences miSentences();
LintResult lintMmoptss(std::string_view component);
ReasonSentences mmoptssSentences();
LintResult lintNonzero(std::string_view component);
ReasonSentences nonzeroSentences();
LintResult lintNozeroprefix(std::string_view component);
ReasonSentences nozeroprefixSentences();
LintResult lintPackagetype(std::string_view component);
ReasonSentences packagetypeSentences();
LintResult lintPcenc(std::string_view component);
ReasonSentences pcencSentences();
LintResult lintPieceoftotal(std::string_view component);
ReasonSentences pieceoftotalSentences();
LintResult lintPosinseqslash(std::string_view component);
ReasonSentences posinseqslashSentences();
LintResult lintSs(std::string_view component);
ReasonSentences ssSentences();
LintResult lintWinding(std::string_view component);
ReasonSentences windingSentences();
LintResult lintYesno(std::string_view component);
ReasonSentences yesnoSentences();
LintResult lintYymmd0(std::string_view component);
ReasonSentences yymmd0Sentences();
LintResult lintYymmdd(std::string_view component);
ReasonSentences yymmddSentences();
LintResult lintYymmddhh(std::string_view component);
ReasonSentences yymmddhhSentences();
LintResult lintYyyymmdd(std::string_view component);
ReasonSentences yyyymmddSentences();
LintResult lintZero(std::string_view component);
ReasonSentences zeroSentences();

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
