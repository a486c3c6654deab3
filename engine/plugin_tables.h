// What the program assembling a binary hands to the engine: the tables of
// C++ linters and rule modules it was built with. The engine names no plugin;
// plugins/builtin_plugins.h gives the tables this project ships.
#pragma once

#include "engine/linter.h"
#include "engine/pipeline.h"

namespace codepayload {

struct PluginTables {
  lint::LinterTable linters;
  RuleModuleTable ruleModules;
};

}  // namespace codepayload
