// Declarations of the built-in linters, one per lint_<name>.cpp.
#pragma once

#include "plugins/linters/linter.h"

namespace codepayload::lint {

LintResult lintCsum(std::string_view component);

}  // namespace codepayload::lint
