// Declarations of the built-in linters, one per lint_<name>.cpp. Each follows
// the GS1 reference linter of the same name (gs1/gs1-syntax-engine,
// src/c-lib/syntax/lint_<name>.c): same accept/reject decisions, same
// offending span. Reason tokens are listed in lint_reasons.h.
#pragma once

#include "engine/linter.h"

namespace codepayload::lint {

// Every built-in linter, sorted by name (aliases included): linter_table.cpp.
LinterTable builtinLinters();

// Character sets used by the engine for the component types N, X, Y, Z.
LintResult lintCsetnumeric(std::string_view component);
LintResult lintCset82(std::string_view component);
LintResult lintCset39(std::string_view component);
LintResult lintCset64(std::string_view component);

// Check characters and GS1 Company Prefix position.
LintResult lintCsum(std::string_view component);
LintResult lintCsumalpha(std::string_view component);
LintResult lintGcppos1(std::string_view component);
LintResult lintGcppos2(std::string_view component);

// Coupons.
LintResult lintCouponcode(std::string_view component);
LintResult lintCouponposoffer(std::string_view component);

// Dates and times.
LintResult lintYymmd0(std::string_view component);
LintResult lintYymmdd(std::string_view component);
LintResult lintYymmddhh(std::string_view component);
LintResult lintYyyymmdd(std::string_view component);
LintResult lintHh(std::string_view component);
LintResult lintMi(std::string_view component);
LintResult lintSs(std::string_view component);
LintResult lintHhmi(std::string_view component);
LintResult lintMmoptss(std::string_view component);

// Code lists.
LintResult lintIso3166(std::string_view component);
LintResult lintIso3166999(std::string_view component);
LintResult lintIso3166alpha2(std::string_view component);
LintResult lintIso3166list(std::string_view component);
LintResult lintIso4217(std::string_view component);
LintResult lintIso5218(std::string_view component);
LintResult lintMediatype(std::string_view component);
LintResult lintPackagetype(std::string_view component);
LintResult lintIban(std::string_view component);

// Single values and simple shapes.
LintResult lintHasnondigit(std::string_view component);
LintResult lintHyphen(std::string_view component);
LintResult lintImporteridx(std::string_view component);
LintResult lintNonzero(std::string_view component);
LintResult lintNozeroprefix(std::string_view component);
LintResult lintZero(std::string_view component);
LintResult lintYesno(std::string_view component);
LintResult lintWinding(std::string_view component);
LintResult lintPcenc(std::string_view component);
LintResult lintPieceoftotal(std::string_view component);
LintResult lintPosinseqslash(std::string_view component);
LintResult lintLatitude(std::string_view component);
LintResult lintLongitude(std::string_view component);

}  // namespace codepayload::lint
