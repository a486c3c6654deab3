#include "engine/lua_runtime.h"

#include <lua.hpp>

#include <Poco/Logger.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "common/utf8.h"
#include "engine/engine_metrics.h"
#include "engine/item.h"
#include "engine/snapshot.h"
#include "engine/validation_codes.h"

namespace codepayload {

namespace {

std::atomic<std::uint64_t> nextRuntimeId{1};

Poco::Logger& logger() { return Poco::Logger::get("codepayload.lua"); }

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SnapshotError(path.string() + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The reason of a Lua linter that failed to run (an error, the instruction
// budget, the memory cap): the value is refused, never passed.
constexpr lint::ReasonSentence kLinterError{
    "linterError",
    "the check {linter} could not run on the value, so it is refused (the operator finds the cause in the server log)"};

bool isReasonToken(std::string_view text) {
  if (text.empty() || text.size() > 64) return false;
  for (char c : text) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

}  // namespace

// One sandboxed lua_State, owned by one thread, for one runtime.
struct LuaThreadState {
  std::uint64_t runtimeId = 0;
  lua_State* L = nullptr;
  std::size_t used = 0;
  std::size_t limit = 0;
  std::uint32_t budget = 0;
  std::vector<int> linters;            // registry refs to the linter functions
  std::vector<int> modules;            // registry refs to the module tables
  const Snapshot* snapshot = nullptr;  // set during a module call, for gs1.ai()

  LuaThreadState() = default;
  LuaThreadState(const LuaThreadState&) = delete;
  LuaThreadState& operator=(const LuaThreadState&) = delete;
  ~LuaThreadState() { close(); }

  void close() {
    if (L != nullptr) lua_close(L);
    L = nullptr;
    runtimeId = 0;
    linters.clear();
    modules.clear();
  }

  static void* allocate(void* userData, void* block, std::size_t oldSize, std::size_t newSize) {
    auto* state = static_cast<LuaThreadState*>(userData);
    std::size_t old = block != nullptr ? oldSize : 0;
    if (newSize == 0) {
      std::free(block);
      state->used -= old;
      return nullptr;
    }
    if (state->used - old + newSize > state->limit) return nullptr;
    void* grown = std::realloc(block, newSize);
    if (grown == nullptr) return nullptr;
    state->used = state->used - old + newSize;
    return grown;
  }

  static void budgetExceeded(lua_State* L, lua_Debug*) { luaL_error(L, "instruction budget exceeded"); }

  // gs1.ai(key) -> {key, title, dataAttribute, primaryKey, components = {{charset, min, max, optional, linters}}}
  static int aiInfo(lua_State* L) {
    auto* state = static_cast<LuaThreadState*>(lua_touserdata(L, lua_upvalueindex(1)));
    std::size_t length = 0;
    const char* key = luaL_checklstring(L, 1, &length);
    const CompiledAi* ai =
        state->snapshot != nullptr ? state->snapshot->findAi(std::string_view(key, length)) : nullptr;
    if (ai == nullptr) {
      lua_pushnil(L);
      return 1;
    }
    const AiDefinition& definition = *ai->definition;
    lua_createtable(L, 0, 5);
    lua_pushlstring(L, definition.ai.data(), definition.ai.size());
    lua_setfield(L, -2, "key");
    lua_pushlstring(L, definition.title.data(), definition.title.size());
    lua_setfield(L, -2, "title");
    lua_pushboolean(L, definition.digitalLinkDataAttribute);
    lua_setfield(L, -2, "dataAttribute");
    lua_pushboolean(L, definition.digitalLinkPrimaryKey);
    lua_setfield(L, -2, "primaryKey");
    lua_createtable(L, static_cast<int>(definition.components.size()), 0);
    for (std::size_t i = 0; i < definition.components.size(); ++i) {
      const ComponentSpec& component = definition.components[i];
      lua_createtable(L, 0, 5);
      char charset = static_cast<char>(component.charset);
      lua_pushlstring(L, &charset, 1);
      lua_setfield(L, -2, "charset");
      lua_pushinteger(L, component.minLength);
      lua_setfield(L, -2, "min");
      lua_pushinteger(L, component.maxLength);
      lua_setfield(L, -2, "max");
      lua_pushboolean(L, component.optional);
      lua_setfield(L, -2, "optional");
      lua_createtable(L, static_cast<int>(component.linters.size()), 0);
      for (std::size_t j = 0; j < component.linters.size(); ++j) {
        lua_pushlstring(L, component.linters[j].data(), component.linters[j].size());
        lua_rawseti(L, -2, static_cast<lua_Integer>(j + 1));
      }
      lua_setfield(L, -2, "linters");
      lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
    }
    lua_setfield(L, -2, "components");
    return 1;
  }

  void open(std::size_t memoryLimit, std::uint32_t instructionBudget) {
    close();
    used = 0;
    limit = memoryLimit;
    budget = instructionBudget;
    L = lua_newstate(&LuaThreadState::allocate, this);
    if (L == nullptr) throw SnapshotError("Lua: cannot create a state");
    static const luaL_Reg kLibraries[] = {{LUA_GNAME, luaopen_base},
                                          {LUA_STRLIBNAME, luaopen_string},
                                          {LUA_TABLIBNAME, luaopen_table},
                                          {LUA_MATHLIBNAME, luaopen_math},
                                          {LUA_UTF8LIBNAME, luaopen_utf8}};
    for (const luaL_Reg& library : kLibraries) {
      luaL_requiref(L, library.name, library.func, 1);
      lua_pop(L, 1);
    }
    for (const char* unsafe : {"dofile", "loadfile", "load", "require", "collectgarbage", "print"}) {
      lua_pushnil(L);
      lua_setglobal(L, unsafe);
    }
    lua_createtable(L, 0, 1);
    lua_pushlightuserdata(L, this);
    lua_pushcclosure(L, &LuaThreadState::aiInfo, 1);
    lua_setfield(L, -2, "ai");
    lua_setglobal(L, "gs1");
  }

  // pcall under the instruction budget; on failure returns the message.
  bool call(int arguments, int results, std::string& error) {
    lua_sethook(L, &LuaThreadState::budgetExceeded, LUA_MASKCOUNT, static_cast<int>(budget));
    int status = lua_pcall(L, arguments, results, 0);
    lua_sethook(L, nullptr, 0, 0);
    if (status == LUA_OK) return true;
    if (status == LUA_ERRMEM) {
      error = "memory limit exceeded";
    } else {
      const char* message = lua_tostring(L, -1);
      error = message != nullptr ? message : "error object is not a string";
    }
    lua_pop(L, 1);
    return false;
  }

  // Loads a chunk and runs it; leaves its first `results` results on the stack.
  void loadChunk(const LuaRuntime::Source& source, int results = 1) {
    if (luaL_loadbufferx(L, source.code.data(), source.code.size(), source.chunkName.c_str(), "t") != LUA_OK) {
      std::string message = lua_tostring(L, -1);
      lua_pop(L, 1);
      throw SnapshotError("Lua: " + message);
    }
    std::string error;
    if (!call(0, results, error)) throw SnapshotError("Lua: " + source.chunkName.substr(1) + ": " + error);
  }

  // A linter's sentences, the optional table after its function: reason token
  // -> sentence. Leaves the stack as it was.
  std::map<std::string, std::string, std::less<>> linterSentences(int index, const std::string& where) {
    std::map<std::string, std::string, std::less<>> sentences;
    if (lua_isnil(L, index)) return sentences;
    if (!lua_istable(L, index)) throw SnapshotError("Lua: " + where + ": the sentences must be a table");
    lua_pushnil(L);
    while (lua_next(L, index < 0 ? index - 1 : index) != 0) {
      std::size_t keyLength = 0;
      const char* key = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &keyLength) : nullptr;
      const char* sentence = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : nullptr;
      if (key == nullptr || !isReasonToken(std::string_view(key, keyLength)) || sentence == nullptr) {
        throw SnapshotError("Lua: " + where + ": the sentences must map reason tokens to strings");
      }
      sentences.emplace(std::string(key, keyLength), sentence);
      lua_pop(L, 1);
    }
    return sentences;
  }

  void pushSettings(const ModuleSettings& settings) {
    lua_createtable(L, 0, static_cast<int>(settings.size()));
    for (const auto& [key, value] : settings) {
      lua_pushlstring(L, value.data(), value.size());
      lua_setfield(L, -2, key.c_str());
    }
  }

  // Loads a module chunk, checks its shape and runs init(settings). Leaves the
  // module table on the stack.
  void loadModule(const LuaRuntime::Source& source, bool& enabled, std::string& reason) {
    loadChunk(source);
    std::string where = source.chunkName.substr(1);
    if (!lua_istable(L, -1)) throw SnapshotError("Lua: " + where + ": must return a table");
    lua_getfield(L, -1, "check");
    bool hasCheck = lua_isfunction(L, -1);
    lua_pop(L, 1);
    if (!hasCheck) throw SnapshotError("Lua: " + where + ": the module table has no check function");
    enabled = true;
    reason.clear();
    lua_getfield(L, -1, "init");
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      return;
    }
    if (!lua_isfunction(L, -1)) throw SnapshotError("Lua: " + where + ": init must be a function");
    pushSettings(source.settings);
    std::string error;
    if (!call(1, 2, error)) throw SnapshotError("Lua: " + where + ": init failed: " + error);
    enabled = lua_toboolean(L, -2) != 0;
    if (!enabled) {
      const char* why = lua_tostring(L, -1);
      reason = why != nullptr ? why : "switched off by its init";
    }
    lua_pop(L, 2);
  }

  void prepare(const LuaRuntime& runtime, std::uint64_t id, const std::vector<LuaRuntime::Source>& linterSources,
               const std::vector<LuaRuntime::Source>& moduleSources, const LuaLimits& limits) {
    open(limits.memoryLimitBytes, limits.instructionBudget);
    for (const auto& source : linterSources) {
      loadChunk(source);
      linters.push_back(luaL_ref(L, LUA_REGISTRYINDEX));
    }
    for (const auto& source : moduleSources) {
      bool enabled = true;
      std::string reason;
      loadModule(source, enabled, reason);
      modules.push_back(luaL_ref(L, LUA_REGISTRYINDEX));
    }
    (void)runtime;
    runtimeId = id;
  }
};

namespace {

thread_local LuaThreadState threadState;

void pushItem(lua_State* L, const ItemContext& item) {
  const CodeDefinition& definition = item.definition();
  auto setString = [L](const char* field, std::string_view value) {
    lua_pushlstring(L, value.data(), value.size());
    lua_setfield(L, -2, field);
  };
  auto setOptional = [&](const char* field, const std::optional<std::string_view>& value) {
    if (value) setString(field, *value);
  };
  auto pushAi = [&](const ItemAi& ai) {
    lua_createtable(L, 0, 2);
    setString("key", ai.key);
    setString("value", ai.value());
  };
  lua_createtable(L, 0, 8);
  lua_pushinteger(L, static_cast<lua_Integer>(item.position()));
  lua_setfield(L, -2, "position");
  setOptional("reference", definition.reference);
  setOptional("digitalLinkStem", definition.digitalLinkStem);
  setOptional("linkType", definition.linkType);
  setOptional("context", definition.context);
  pushAi(item.primaryKey());
  lua_setfield(L, -2, "primaryKey");
  lua_createtable(L, static_cast<int>(item.ais().size()), 0);
  for (std::size_t i = 0; i < item.ais().size(); ++i) {
    pushAi(item.ais()[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_setfield(L, -2, "ais");
  lua_createtable(L, static_cast<int>(definition.extensionParameters.size()), 0);
  for (std::size_t i = 0; i < definition.extensionParameters.size(); ++i) {
    lua_createtable(L, 0, 2);
    setString("key", definition.extensionParameters[i].key);
    setString("value", definition.extensionParameters[i].value);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_setfield(L, -2, "extensionParameters");
}

// report(code, path, args[, message]): collects one error; the code must be a
// validation code. Without a message the engine builds a generic one.
constexpr std::size_t kMaxReportedMessageBytes = 1024;

struct ReportCollector {
  std::vector<ValidationError> errors;
  std::string invalid;  // first malformed report, if any
};

int report(lua_State* L) {
  auto* collector = static_cast<ReportCollector*>(lua_touserdata(L, lua_upvalueindex(1)));
  std::size_t length = 0;
  const char* code = lua_tolstring(L, 1, &length);
  if (code == nullptr || !std::string_view(code, length).starts_with(codes::kPrefix)) {
    if (collector->invalid.empty()) collector->invalid = "report: the code must start with Validation.Invalid.";
    return 0;
  }
  ValidationError error{std::string(code, length), std::nullopt, {}};
  if (lua_type(L, 2) == LUA_TSTRING) error.path = std::string(lua_tostring(L, 2));
  if (lua_istable(L, 3)) {
    lua_Integer count = luaL_len(L, 3);
    for (lua_Integer i = 1; i <= count && i <= 32; ++i) {
      lua_rawgeti(L, 3, i);
      std::size_t argLength = 0;
      const char* arg = lua_tolstring(L, -1, &argLength);
      if (arg != nullptr) error.args.emplace_back(arg, argLength);
      lua_pop(L, 1);
    }
  }
  // An optional fourth argument is the module's own message for a person.
  if (lua_type(L, 4) == LUA_TSTRING) {
    std::size_t messageLength = 0;
    const char* message = lua_tolstring(L, 4, &messageLength);
    std::string_view text(message, std::min<std::size_t>(messageLength, kMaxReportedMessageBytes));
    // Cut at a character boundary; a message that is not UTF-8 is dropped
    // (the engine's generic sentence stands in).
    while (text.size() < messageLength && !text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80)
      text.remove_suffix(1);
    if (text.size() < messageLength && !text.empty() && (static_cast<unsigned char>(text.back()) & 0x80) != 0)
      text.remove_suffix(1);
    if (common::isValidUtf8(text)) error.message.assign(text);
  }
  if (collector->errors.size() < 64) collector->errors.push_back(std::move(error));
  return 0;
}

}  // namespace

LuaRuntime::LuaRuntime(std::filesystem::path rulesDir, LuaLimits limits)
    : rulesDir_(std::move(rulesDir)), limits_(limits), id_(nextRuntimeId.fetch_add(1)) {}

LuaRuntime::~LuaRuntime() {
  if (threadState.runtimeId == id_) threadState.close();
}

int LuaRuntime::addLinter(std::string_view name) {
  for (std::size_t i = 0; i < linters_.size(); ++i) {
    if (linters_[i].name == name) return static_cast<int>(i);
  }
  std::filesystem::path file = rulesDir_ / "linters" / (std::string(name) + ".lua");
  Source source{std::string(name),
                "@" + (std::filesystem::path("rules") / "linters" / file.filename()).string(),
                readFile(file),
                {},
                {}};
  LuaThreadState scratch;
  scratch.open(limits_.memoryLimitBytes, limits_.instructionBudget);
  scratch.loadChunk(source, 2);
  if (!lua_isfunction(scratch.L, -2))
    throw SnapshotError("Lua: " + source.chunkName.substr(1) + ": must return a function");
  source.sentences = scratch.linterSentences(-1, source.chunkName.substr(1));
  linters_.push_back(std::move(source));
  return static_cast<int>(linters_.size() - 1);
}

int LuaRuntime::addModule(std::string_view name, const ModuleSettings& settings, bool& enabled, std::string& reason,
                          std::string& summary) {
  std::filesystem::path file = rulesDir_ / "modules" / (std::string(name) + ".lua");
  Source source{std::string(name),
                "@" + (std::filesystem::path("rules") / "modules" / file.filename()).string(),
                readFile(file),
                settings,
                {}};
  LuaThreadState scratch;
  scratch.open(limits_.memoryLimitBytes, limits_.instructionBudget);
  scratch.loadModule(source, enabled, reason);
  lua_getfield(scratch.L, -1, "describe");
  const char* description = lua_tostring(scratch.L, -1);
  summary = description != nullptr ? description : "";
  if (!enabled) logger().information("rule module lua:%s is switched off: %s", std::string(name), reason);
  modules_.push_back(std::move(source));
  return static_cast<int>(modules_.size() - 1);
}

namespace {

LuaThreadState& stateFor(const LuaRuntime& runtime, std::uint64_t id, const std::vector<LuaRuntime::Source>& linters,
                         const std::vector<LuaRuntime::Source>& modules, const LuaLimits& limits) {
  if (threadState.runtimeId != id || threadState.L == nullptr)
    threadState.prepare(runtime, id, linters, modules, limits);
  return threadState;
}

}  // namespace

lint::LintResult LuaRuntime::runLinter(int index, std::string_view component) const {
  thread_local std::string reasonStorage;
  LuaThreadState* state = nullptr;
  std::string error;
  try {
    state = &stateFor(*this, id_, linters_, modules_, limits_);
  } catch (const SnapshotError& e) {
    error = e.what();
  }
  if (state != nullptr) {
    lua_State* L = state->L;
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, state->linters[static_cast<std::size_t>(index)]);
    lua_pushlstring(L, component.data(), component.size());
    if (state->call(1, 3, error)) {
      lint::LintResult result = lint::kPass;
      if (!lua_isnil(L, -3)) {
        std::size_t length = 0;
        const char* reason = lua_tolstring(L, -3, &length);
        lua_Integer offset = lua_tointeger(L, -2);
        lua_Integer span = lua_tointeger(L, -1);
        if (reason != nullptr && isReasonToken(std::string_view(reason, length)) && offset >= 0 &&
            static_cast<std::size_t>(offset) <= component.size() && span >= 0 &&
            static_cast<std::size_t>(offset + span) <= component.size()) {
          reasonStorage.assign(reason, length);
          result = lint::fail(reasonStorage.c_str(), static_cast<std::size_t>(offset), static_cast<std::size_t>(span));
        } else {
          error = "returned a malformed verdict (want nil, or reason, offset, length)";
        }
      }
      lua_settop(L, top);
      if (error.empty()) return result;
    } else {
      lua_settop(L, top);
    }
  }
  failures_.fetch_add(1, std::memory_order_relaxed);
  engineMetrics().luaLinterFailures.add();
  logger().error("Lua linter %s failed: %s", linters_[static_cast<std::size_t>(index)].name, error);
  return lint::fail(kLinterError.reason.data(), 0, component.size());
}

std::string_view LuaRuntime::linterSentence(int index, std::string_view reason) const {
  if (reason == kLinterError.reason) return kLinterError.sentence;
  const auto& sentences = linters_[static_cast<std::size_t>(index)].sentences;
  auto found = sentences.find(reason);
  return found != sentences.end() ? std::string_view(found->second) : std::string_view();
}

void LuaRuntime::runModule(int index, ItemContext& item) const {
  const Source& source = modules_[static_cast<std::size_t>(index)];
  std::string error;
  ReportCollector collector;
  try {
    LuaThreadState& state = stateFor(*this, id_, linters_, modules_, limits_);
    lua_State* L = state.L;
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, state.modules[static_cast<std::size_t>(index)]);
    lua_getfield(L, -1, "check");
    pushItem(L, item);
    lua_pushlightuserdata(L, &collector);
    lua_pushcclosure(L, &report, 1);
    state.snapshot = &item.rules();
    bool ok = state.call(2, 0, error);
    state.snapshot = nullptr;
    lua_settop(L, top);
    if (ok && !collector.invalid.empty()) error = collector.invalid;
  } catch (const SnapshotError& e) {
    error = e.what();
  }
  if (error.empty()) {
    for (ValidationError& reported : collector.errors) {
      item.addError(std::move(reported.code), std::move(reported.path), std::move(reported.args),
                    std::move(reported.message));
    }
    return;
  }
  failures_.fetch_add(1, std::memory_order_relaxed);
  engineMetrics().luaModuleFailures.add();
  logger().error("Lua rule module %s failed: %s", source.name, error);
  item.addError(codes::ruleModule(source.name), std::nullopt, {"ruleError"},
                messages::Fault{.sentence = messages::Sentence::RuleModuleFailed, .module = source.name});
}

}  // namespace codepayload
