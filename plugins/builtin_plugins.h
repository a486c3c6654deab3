// The plugin tables this project ships: every C++ linter (plugins/linters) and
// rule module (plugins/rules). The binaries and the tests hand them to the
// engine; a binary linking both plugin libraries includes this header.
#pragma once

#include <filesystem>

#include "engine/linter_catalog.h"
#include "engine/plugin_tables.h"
#include "plugins/linters/linters.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload {

inline PluginTables builtinPluginTables() { return {lint::builtinLinters(), rules::builtinRuleModules()}; }

// The linters such a binary knows: the built-in table, then rulesDir/linters/<name>.lua.
inline LinterCatalog builtinLinterCatalog(const std::filesystem::path& rulesDir) {
  return LinterCatalog(lint::builtinLinters(), rulesDir);
}

}  // namespace codepayload
