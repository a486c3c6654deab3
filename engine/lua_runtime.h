// The Lua side of the rules: linters (rules/linters/<name>.lua) and rule
// modules (rules/modules/<name>.lua), all glue between Lua and C++ in one place.
//
// Sandbox: each worker thread gets its own lua_State per runtime (never shared),
// opened with base, string, table, math and utf8 only (no io, os, package,
// require, debug, load of files), an instruction budget per call and a memory
// cap per state. A Lua failure is caught, counted and reported as a failure of
// that item (fail closed), never as a pass.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/linter.h"
#include "engine/pipeline.h"

namespace codepayload {

class ItemContext;

struct LuaLimits {
  std::uint32_t instructionBudget = 1'000'000;  // per call
  std::size_t memoryLimitBytes = 16u << 20;     // per state
};

class LuaRuntime {
 public:
  explicit LuaRuntime(std::filesystem::path rulesDir, LuaLimits limits = {});
  ~LuaRuntime();

  // Registers rules/linters/<name>.lua; throws SnapshotError if it does not
  // load or does not return a function (and, optionally, a table of its
  // sentences: reason token -> sentence). Returns its index.
  int addLinter(std::string_view name);

  // Registers rules/modules/<name>.lua and runs its init(settings). Returns its
  // index; `enabled`/`reason` say whether it switched itself off, and why.
  int addModule(std::string_view name, const ModuleSettings& settings, bool& enabled, std::string& reason,
                std::string& summary);

  lint::LintResult runLinter(int index, std::string_view component) const;
  // The sentence of a reason linter `index` reported (its own, or the
  // runtime's for linterError); empty when it gave the reason none.
  std::string_view linterSentence(int index, std::string_view reason) const;
  void runModule(int index, ItemContext& item) const;

  // How many Lua calls failed (error, budget, memory) since start.
  std::uint64_t failures() const { return failures_.load(std::memory_order_relaxed); }

  LuaRuntime(const LuaRuntime&) = delete;
  LuaRuntime& operator=(const LuaRuntime&) = delete;

  struct Source {
    std::string name;
    std::string chunkName;  // "@rules/linters/latlong.lua"
    std::string code;
    ModuleSettings settings;
    std::map<std::string, std::string, std::less<>> sentences;  // a linter's: reason token -> sentence
  };

 private:
  friend struct LuaThreadState;
  std::filesystem::path rulesDir_;
  LuaLimits limits_;
  std::vector<Source> linters_;
  std::vector<Source> modules_;
  std::uint64_t id_;
  mutable std::atomic<std::uint64_t> failures_{0};
};

}  // namespace codepayload
