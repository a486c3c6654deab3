// An immutable, fully indexed set of rules: the dictionary with its linters
// resolved, the link types, and the configured validation pipeline. Requests
// take a shared_ptr to the current snapshot and keep it for their whole run, so
// a reload (SnapshotHolder::replace) never changes rules under a running item.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/dictionary.h"
#include "engine/pipeline.h"
#include "plugins/linters/linter.h"

namespace codepayload {

class LuaRuntime;

struct SnapshotError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A linter resolved for fast calls: a C++ function, or a Lua linter by index.
struct ResolvedLinter {
  std::string name;
  lint::LinterFn builtin = nullptr;  // null -> Lua linter `luaIndex`
  int luaIndex = -1;
};

struct CompiledComponent {
  CharacterSet charset;
  lint::LinterFn charsetCheck;  // csetnumeric, cset82, cset39 or cset64
  std::uint16_t minLength;
  std::uint16_t maxLength;
  bool optional;
  std::vector<ResolvedLinter> linters;
};

struct CompiledAi {
  const AiDefinition* definition;
  std::string formatSpec;  // "N13 [X..17]": for error args
  std::vector<CompiledComponent> components;
};

class Snapshot {
 public:
  // Builds the snapshot; throws SnapshotError with a readable cause (a linter
  // without implementation, a bad pipeline configuration, a Lua file that does
  // not load).
  static std::shared_ptr<const Snapshot> build(Dictionary dictionary, const std::filesystem::path& rulesDir);

  ~Snapshot();

  const Dictionary& dictionary() const { return dictionary_; }
  const ReleaseInfo& release() const { return dictionary_.release; }

  // The compiled AI, or nullptr for an unknown AI. O(1).
  const CompiledAi* findAi(std::string_view ai) const;

  // Whether `id` ("gs1:pip") is a link type the generator offers.
  bool isSelectableLinkType(std::string_view id) const;
  // The vocabulary entry for `id`, selectable or not; nullptr if unknown.
  const LinkType* findLinkType(std::string_view id) const;

  const Pipeline& pipeline() const { return *pipeline_; }
  const LuaRuntime& lua() const { return *lua_; }
  std::uint64_t generation() const { return generation_; }

  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;

 private:
  Snapshot();

  Dictionary dictionary_;
  std::vector<CompiledAi> compiled_;
  std::vector<std::int32_t> index_;  // by AI length and number -> compiled_ slot, -1 if none
  std::vector<std::string> selectableLinkTypes_;  // sorted
  std::unique_ptr<Pipeline> pipeline_;
  std::unique_ptr<LuaRuntime> lua_;
  std::uint64_t generation_ = 0;
};

// Holds the current snapshot; readers and one reloader may run at once.
class SnapshotHolder {
 public:
  explicit SnapshotHolder(std::shared_ptr<const Snapshot> initial) : current_(std::move(initial)) {}

  std::shared_ptr<const Snapshot> current() const { return current_.load(std::memory_order_acquire); }
  void replace(std::shared_ptr<const Snapshot> next) { current_.store(std::move(next), std::memory_order_release); }

 private:
  std::atomic<std::shared_ptr<const Snapshot>> current_;
};

}  // namespace codepayload
