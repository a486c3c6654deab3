#include "engine/linter_catalog.h"

#include <string>
#include <system_error>

#include "plugins/linters/linter.h"

namespace codepayload {

namespace {

bool isLinterName(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

}  // namespace

std::filesystem::path luaLinterPath(const std::filesystem::path& rulesDir, std::string_view name) {
  return rulesDir / "linters" / (std::string(name) + ".lua");
}

LinterSource findLinterSource(std::string_view name, const std::filesystem::path& rulesDir) {
  if (lint::findBuiltinLinter(name) != nullptr) return LinterSource::Builtin;
  if (!isLinterName(name)) return LinterSource::None;
  std::error_code ec;
  if (std::filesystem::is_regular_file(luaLinterPath(rulesDir, name), ec)) return LinterSource::Lua;
  return LinterSource::None;
}

}  // namespace codepayload
