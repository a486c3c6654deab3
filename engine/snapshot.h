// An immutable, fully indexed set of rules: the dictionary with its linters
// resolved, the link types, and the configured validation pipeline. Requests
// take a shared_ptr to the current snapshot and keep it for their whole run, so
// a reload (SnapshotHolder::replace) never changes rules under a running item.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/published.h"
#include "engine/dictionary.h"
#include "engine/linter.h"
#include "engine/pipeline.h"
#include "engine/plugin_tables.h"

namespace codepayload {

class LuaRuntime;

struct SnapshotError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A linter resolved for fast calls: a C++ function, or a Lua linter by index.
struct ResolvedLinter {
  std::string name;
  lint::LinterFn builtin = nullptr;  // null -> Lua linter `luaIndex`
  lint::ReasonSentences sentences;   // a built-in linter's (a Lua linter's are in the LuaRuntime)
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

// An AI pattern of req=/ex= attributes, ready for fast matching: an exact AI
// is compared by slot, a pattern with 'n' wildcards by text.
struct CompiledPattern {
  std::int32_t slot;  // aiSlot of an exact AI; -1 for a wildcard pattern
  const AiPattern* pattern;

  bool matches(std::int32_t aiSlotOfOther, std::string_view other) const {
    return slot >= 0 ? slot == aiSlotOfOther : pattern->matches(other);
  }
};

struct CompiledAi {
  const AiDefinition* definition;
  std::int32_t slot;
  std::string formatSpec;  // "N13 [X..17]": for error args
  std::string bracketed;   // "(01)": element strings and HRI
  std::string pathKey;     // "/01/": Digital Link paths
  std::vector<CompiledComponent> components;
  // The req= attributes: [rule][alternative][member]
  std::vector<std::vector<std::vector<CompiledPattern>>> requirements;
  std::vector<CompiledPattern> excludes;
  // The qualifier sequences of a Digital Link primary key, as AI slots.
  std::vector<std::vector<std::int32_t>> qualifierSequences;

  // The rank of `qualifierSlot` in sequence `sequence`, or -1.
  int qualifierRank(std::size_t sequence, std::int32_t qualifierSlot) const {
    const auto& slots = qualifierSequences[sequence];
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (slots[i] == qualifierSlot) return static_cast<int>(i);
    }
    return -1;
  }
  bool isQualifier(std::int32_t qualifierSlot) const {
    for (std::size_t s = 0; s < qualifierSequences.size(); ++s) {
      if (qualifierRank(s, qualifierSlot) >= 0) return true;
    }
    return false;
  }
};

// AIs are 2 to 4 digits: a dense index for per-AI tables. -1 for anything else.
inline constexpr std::int32_t kAiSlots = 100 + 1000 + 10000;
std::int32_t aiSlot(std::string_view ai);

// A set of AIs, e.g. the AIs a normalisation applies to: O(1) membership.
class AiSet {
 public:
  AiSet() = default;
  explicit AiSet(const std::vector<std::string>& ais);
  bool contains(std::int32_t slot) const { return slot >= 0 && members_[static_cast<std::size_t>(slot)]; }

 private:
  std::vector<bool> members_ = std::vector<bool>(kAiSlots, false);
};

class Snapshot {
 public:
  // Builds the snapshot; throws SnapshotError with a readable cause (a linter
  // without implementation, a bad pipeline configuration, a Lua file that does
  // not load). `plugins` are the C++ linters and rule modules the binary was
  // built with; rulesDir holds the Lua linters and modules and
  // pipeline.properties.
  static std::shared_ptr<const Snapshot> build(Dictionary dictionary, const std::filesystem::path& rulesDir,
                                               const PluginTables& plugins);

  ~Snapshot();

  const Dictionary& dictionary() const { return dictionary_; }
  const ReleaseInfo& release() const { return dictionary_.release; }

  // The compiled AI, or nullptr for an unknown AI. O(1).
  const CompiledAi* findAi(std::string_view ai) const { return findAi(aiSlot(ai)); }
  const CompiledAi* findAi(std::int32_t slot) const {
    if (slot < 0) return nullptr;
    std::int32_t at = index_[static_cast<std::size_t>(slot)];
    return at < 0 ? nullptr : &compiled_[static_cast<std::size_t>(at)];
  }

  // Whether `id` ("gs1:pip") is a link type the generator offers.
  bool isSelectableLinkType(std::string_view id) const;
  // Every link type the generator offers, in vocabulary order.
  std::span<const std::string> selectableLinkTypes() const { return selectableLinkTypes_; }
  // The vocabulary entry for `id`, selectable or not; nullptr if unknown.
  const LinkType* findLinkType(std::string_view id) const;

  const Pipeline& pipeline() const { return *pipeline_; }
  const LuaRuntime& lua() const { return *lua_; }

  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;

 private:
  Snapshot();

  Dictionary dictionary_;
  std::vector<CompiledAi> compiled_;
  std::vector<std::int32_t> index_;  // by AI length and number -> compiled_ slot, -1 if none
  std::vector<std::string> selectableLinkTypes_;
  std::unordered_set<std::string_view> selectableLinkTypeIndex_;  // views of selectableLinkTypes_
  std::unique_ptr<Pipeline> pipeline_;
  std::unique_ptr<LuaRuntime> lua_;
};

// Holds the current snapshot; readers and one reloader may run at once.
using SnapshotHolder = common::Published<Snapshot>;

}  // namespace codepayload
