// Where a dictionary linter name is implemented: built in (C++, plugins/linters)
// or as a Lua linter (rules/linters/<name>.lua). C++ wins when both exist.
#pragma once

#include <filesystem>
#include <string_view>

namespace codepayload {

enum class LinterSource { None, Builtin, Lua };

LinterSource findLinterSource(std::string_view name, const std::filesystem::path& rulesDir);

// The Lua file that would implement `name`.
std::filesystem::path luaLinterPath(const std::filesystem::path& rulesDir, std::string_view name);

}  // namespace codepayload
