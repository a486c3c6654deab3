// The validation pipeline: named rule modules in a configured order.
//
// A rule module has one job (primary key, AI format, relations, ...). The
// engine owns the RuleModule contract; C++ modules live in plugins/rules and
// are registered by name in one table (plugins/rules/rule_table.cpp), which the
// program assembling a binary hands to the engine; Lua modules live in rules/modules/<name>.lua
// and are named "lua:<name>" in the pipeline. The order comes from
// rules/pipeline.properties, and each module, C++ or Lua, reads its own
// section of it ("module.<name>.<key> = value"). A module may switch itself off
// with a reason (e.g. a Lua allow-list with no prefixes configured); the engine
// lists every module's state.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload {

class ItemContext;
class Snapshot;
class LuaRuntime;

// One module's settings: the "module.<name>.<key> = value" lines of the pipeline file.
using ModuleSettings = std::map<std::string, std::string, std::less<>>;

// A comma-separated list setting of a module, each item trimmed, empty items
// left out; no items when the key is absent.
std::vector<std::string> settingList(const ModuleSettings& settings, std::string_view key);

// The pipeline file, parsed once into plain data: the steps, and each module's
// section for the module to read.
struct PipelineSettings {
  std::vector<std::string> steps;                              // pipeline.steps
  std::map<std::string, ModuleSettings, std::less<>> modules;  // module.<name>.<key>

  // The section of module `name` (empty when the file has none).
  const ModuleSettings& module(std::string_view name) const;

  // Reads rules/pipeline.properties (or another file); throws SnapshotError,
  // also for a key outside pipeline.steps and module.<name>.<key>.
  static PipelineSettings load(const std::filesystem::path& file);
};

class RuleModule {
 public:
  virtual ~RuleModule() = default;
  virtual void check(ItemContext& item) const = 0;
};

// What a C++ module's factory makes of its settings: the running module, or
// none and the reason it switched itself off (as a Lua module's init answers
// false, "reason"). A setting it cannot use throws SnapshotError.
struct RuleModuleStart {
  std::unique_ptr<RuleModule> module;  // null: switched off
  std::string offReason;
};

using RuleModuleFactory = RuleModuleStart (*)(const ModuleSettings& settings);

struct RuleModuleEntry {
  std::string_view name;
  std::string_view summary;  // one line: what the module checks
  RuleModuleFactory create;
};

// A table of C++ rule modules sorted by name, without duplicates (the built-in
// one is plugins/rules/rule_table.cpp, checked sorted at build time).
struct RuleModuleTable {
  const RuleModuleEntry* begin = nullptr;
  const RuleModuleEntry* end = nullptr;

  // The module named `name`, or nullptr.
  const RuleModuleEntry* find(std::string_view name) const;
};

struct ModuleState {
  std::string name;  // "relations", "lua:gcp_allowlist"
  std::string kind;  // "cpp" or "lua"
  bool enabled;
  std::string reason;  // why disabled, or the module summary
};

class Pipeline {
 public:
  struct Step {
    std::string name;
    std::unique_ptr<RuleModule> module;  // C++ module, or null for a Lua module
    int luaModule = -1;                  // index in the LuaRuntime
  };

  Pipeline(std::vector<Step> steps, std::vector<ModuleState> states);

  void run(ItemContext& item) const;
  const std::vector<ModuleState>& states() const { return states_; }

 private:
  std::vector<Step> steps_;
  std::vector<ModuleState> states_;
};

}  // namespace codepayload
