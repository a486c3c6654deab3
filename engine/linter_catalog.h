// Where a dictionary linter name is implemented: in the table of C++ linters
// the binary was built with, or as a Lua linter (rulesDir/linters/<name>.lua).
// C++ wins when both exist. The importer, the rule store and the snapshot
// all ask this one catalogue, so they agree on what "implemented" means.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "engine/linter.h"

namespace codepayload {

enum class LinterSource { None, Builtin, Lua };

class LinterCatalog {
 public:
  LinterCatalog(lint::LinterTable builtins, std::filesystem::path rulesDir);

  LinterSource find(std::string_view name) const;

  // The C++ linter registered under `name`, or nullptr.
  lint::LinterFn builtin(std::string_view name) const { return builtins_.find(name); }
  // Its row (function and sentences), or nullptr.
  const lint::LinterEntry* builtinEntry(std::string_view name) const { return builtins_.entry(name); }

  // The Lua file that would implement `name`.
  std::filesystem::path luaPath(std::string_view name) const;

  // "linter \"<name>\"<where> has no implementation (neither built in nor
  // <lua path>)"; `where` is empty or says where the name was used, " (AI 235)".
  std::string missingImplementation(std::string_view name, std::string_view where = {}) const;

  const std::filesystem::path& rulesDir() const { return rulesDir_; }

 private:
  lint::LinterTable builtins_;
  std::filesystem::path rulesDir_;
};

}  // namespace codepayload
