// The built-in linters, one per lint_<name>.cpp. Each follows the GS1
// reference linter of the same name (gs1/gs1-syntax-engine,
// src/c-lib/syntax/lint_<name>.c): same accept/reject decisions, same
// offending span. Reason tokens are listed in lint_reasons.h; each linter's
// file gives every reason it reports its sentence, beside it.
//
// Only the table is public: the engine, the tools and the tests reach a linter
// by its dictionary name, so the linter functions are declared beside their
// rows in linter_table.cpp, not here.
#pragma once

#include "engine/linter.h"

namespace codepayload::lint {

// Every built-in linter, sorted by name (aliases included): linter_table.cpp.
LinterTable builtinLinters();

}  // namespace codepayload::lint
