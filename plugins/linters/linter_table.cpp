// The registry of built-in linters: one row per dictionary name, sorted by name.
#include <algorithm>
#include <iterator>

#include "plugins/linters/linter.h"
#include "plugins/linters/linters.h"

namespace codepayload::lint {

namespace {

constexpr LinterEntry kLinters[] = {
    {"csum", lintCsum},
};

}  // namespace

LinterTable builtinLinters() { return {std::begin(kLinters), std::end(kLinters)}; }

LinterFn findBuiltinLinter(std::string_view name) {
  auto it = std::lower_bound(std::begin(kLinters), std::end(kLinters), name,
                             [](const LinterEntry& entry, std::string_view key) { return entry.name < key; });
  return (it != std::end(kLinters) && it->name == name) ? it->fn : nullptr;
}

}  // namespace codepayload::lint
