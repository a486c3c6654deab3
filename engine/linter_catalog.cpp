#include "engine/linter_catalog.h"

#include <system_error>
#include <utility>

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

LinterCatalog::LinterCatalog(lint::LinterTable builtins, std::filesystem::path rulesDir)
    : builtins_(builtins), rulesDir_(std::move(rulesDir)) {}

std::filesystem::path LinterCatalog::luaPath(std::string_view name) const {
  return rulesDir_ / "linters" / (std::string(name) + ".lua");
}

LinterSource LinterCatalog::find(std::string_view name) const {
  if (builtins_.find(name) != nullptr) return LinterSource::Builtin;
  if (!isLinterName(name)) return LinterSource::None;
  std::error_code ec;
  if (std::filesystem::is_regular_file(luaPath(name), ec)) return LinterSource::Lua;
  return LinterSource::None;
}

std::string LinterCatalog::missingImplementation(std::string_view name, std::string_view where) const {
  return "linter \"" + std::string(name) + "\"" + std::string(where) + " has no implementation (neither built in nor " +
         luaPath(name).string() + ")";
}

}  // namespace codepayload
