// Declarations of the built-in linters, one per lint_<name>.cpp. Each follows
// the GS1 reference linter of the same name (gs1/gs1-syntax-engine,
// src/c-lib/syntax/lint_<name>.c): same accept/reject decisions, same
// offending span. Reason tokens are listed in lint_reasons.h; each linter's
// <name>Sentences() gives every reason it reports its sentence, beside it.
#pragma once

#include "engine/linter.h"

namespace codepayload::lint {

// Every built-in linter, sorted by name (aliases included): linter_table.cpp.
LinterTable builtinLinters();

// Character sets used by the engine for the component types N, X, Y, Z.
LintResult lintCsetnumeric(std::string_view component);
ReasonSentences csetnumericSentences();
LintResult lintCset82(std::string_view component);
ReasonSentences cset82Sentences();
LintResult lintCset39(std::string_view component);
ReasonSentences cset39Sentences();
LintResult lintCset64(std::string_view component);
ReasonSentences cset64Sentences();

// Check characters and GS1 Company Prefix position.
LintResult lintCsum(std::string_view component);
ReasonSentences csumSentences();
LintResult lintCsumalpha(std::string_view component);
ReasonSentences csumalphaSentences();
LintResult lintGcppos1(std::string_view component);
ReasonSentences gcppos1Sentences();
LintResult lintGcppos2(std::string_view component);
ReasonSentences gcppos2Sentences();

// Coupons.
LintResult lintCouponcode(std::string_view component);
ReasonSentences couponcodeSentences();
LintResult lintCouponposoffer(std::string_view component);
ReasonSentences couponposofferSentences();

// Dates and times.
LintResult lintYymmd0(std::string_view component);
ReasonSentences yymmd0Sentences();
LintResult lintYymmdd(std::string_view component);
ReasonSentences yymmddSentences();
LintResult lintYymmddhh(std::string_view component);
ReasonSentences yymmddhhSentences();
LintResult lintYyyymmdd(std::string_view component);
ReasonSentences yyyymmddSentences();
LintResult lintHh(std::string_view component);
ReasonSentences hhSentences();
LintResult lintMi(std::string_view component);
ReasonSentences miSentences();
LintResult lintSs(std::string_view component);
ReasonSentences ssSentences();
LintResult lintHhmi(std::string_view component);
ReasonSentences hhmiSentences();
LintResult lintMmoptss(std::string_view component);
ReasonSentences mmoptssSentences();

// Code lists.
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
LintResult lintMediatype(std::string_view component);
ReasonSentences mediatypeSentences();
LintResult lintPackagetype(std::string_view component);
ReasonSentences packagetypeSentences();
LintResult lintIban(std::string_view component);
ReasonSentences ibanSentences();

// Single values and simple shapes.
LintResult lintHasnondigit(std::string_view component);
ReasonSentences hasnondigitSentences();
LintResult lintHyphen(std::string_view component);
ReasonSentences hyphenSentences();
LintResult lintImporteridx(std::string_view component);
ReasonSentences importeridxSentences();
LintResult lintNonzero(std::string_view component);
ReasonSentences nonzeroSentences();
LintResult lintNozeroprefix(std::string_view component);
ReasonSentences nozeroprefixSentences();
LintResult lintZero(std::string_view component);
ReasonSentences zeroSentences();
LintResult lintYesno(std::string_view component);
ReasonSentences yesnoSentences();
LintResult lintWinding(std::string_view component);
ReasonSentences windingSentences();
LintResult lintPcenc(std::string_view component);
ReasonSentences pcencSentences();
LintResult lintPieceoftotal(std::string_view component);
ReasonSentences pieceoftotalSentences();
LintResult lintPosinseqslash(std::string_view component);
ReasonSentences posinseqslashSentences();
LintResult lintLatitude(std::string_view component);
ReasonSentences latitudeSentences();
LintResult lintLongitude(std::string_view component);
ReasonSentences longitudeSentences();

}  // namespace codepayload::lint
