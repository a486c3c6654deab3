#include "engine/snapshot.h"

#include <Poco/Logger.h>

#include <algorithm>

#include "engine/linter_catalog.h"
#include "engine/lua_runtime.h"
#include "engine/pipeline.h"

namespace codepayload {

std::int32_t aiSlot(std::string_view ai) {
  if (ai.size() < 2 || ai.size() > 4) return -1;
  std::int32_t number = 0;
  for (char c : ai) {
    if (c < '0' || c > '9') return -1;
    number = number * 10 + (c - '0');
  }
  switch (ai.size()) {
    case 2: return number;
    case 3: return 100 + number;
    default: return 1100 + number;
  }
}

AiSet::AiSet(const std::vector<std::string>& ais) {
  for (const std::string& ai : ais) {
    std::int32_t slot = aiSlot(ai);
    if (slot < 0) throw SnapshotError("\"" + ai + "\" is not an AI (2 to 4 digits)");
    members_[static_cast<std::size_t>(slot)] = true;
  }
}

namespace {

Poco::Logger& logger() { return Poco::Logger::get("codepayload.rules"); }

lint::LinterFn charsetCheck(CharacterSet charset, const LinterCatalog& linters) {
  const char* name = "csetnumeric";
  switch (charset) {
    case CharacterSet::Numeric: name = "csetnumeric"; break;
    case CharacterSet::Cset82: name = "cset82"; break;
    case CharacterSet::Cset39: name = "cset39"; break;
    case CharacterSet::Base64Url: name = "cset64"; break;
  }
  lint::LinterFn fn = linters.builtin(name);
  if (fn == nullptr) throw SnapshotError(std::string("character set check \"") + name + "\" is not built in");
  return fn;
}

ResolvedLinter resolveLinter(const std::string& name, const AiDefinition& ai, LuaRuntime& lua,
                             const LinterCatalog& linters) {
  if (const lint::LinterEntry* builtin = linters.builtinEntry(name); builtin != nullptr) {
    return ResolvedLinter{name, builtin->fn, builtin->sentences(), -1};
  }
  ResolvedLinter resolved{name, nullptr, {}, -1};
  if (linters.find(name) != LinterSource::Lua)
    throw SnapshotError("AI " + ai.ai + ": " + linters.missingImplementation(name));
  resolved.luaIndex = lua.addLinter(name);
  return resolved;
}

// The steps of pipeline.steps, each module given its own section of the
// settings; a module that switches itself off is listed, with its reason, and
// does not run.
std::unique_ptr<Pipeline> buildPipeline(const PipelineSettings& settings, const RuleModuleTable& ruleModules,
                                        LuaRuntime& lua, const std::filesystem::path& rulesDir) {
  std::vector<Pipeline::Step> steps;
  std::vector<ModuleState> states;
  for (const std::string& name : settings.steps) {
    if (name.rfind("lua:", 0) == 0) {
      std::string moduleName = name.substr(4);
      bool enabled = true;
      std::string reason;
      std::string summary;
      int index = lua.addModule(moduleName, settings.module(moduleName), enabled, reason, summary);
      states.push_back({name, "lua", enabled, enabled ? summary : reason});
      if (enabled) steps.push_back({name, nullptr, index});
      continue;
    }
    const RuleModuleEntry* entry = ruleModules.find(name);
    if (entry == nullptr) throw SnapshotError("pipeline.steps: no rule module named \"" + name + "\"");
    RuleModuleStart start;
    try {
      start = entry->create(settings.module(name));
    } catch (const SnapshotError& e) {
      throw SnapshotError((rulesDir / "pipeline.properties").string() + ": rule module " + name + ": " + e.what());
    }
    const bool enabled = start.module != nullptr;
    if (!enabled) logger().information("rule module %s is switched off: %s", name, start.offReason);
    states.push_back({name, "cpp", enabled, enabled ? std::string(entry->summary) : start.offReason});
    if (enabled) steps.push_back({name, std::move(start.module), -1});
  }
  return std::make_unique<Pipeline>(std::move(steps), std::move(states));
}

}  // namespace

Snapshot::Snapshot() = default;
Snapshot::~Snapshot() = default;

std::shared_ptr<const Snapshot> Snapshot::build(Dictionary dictionary, const std::filesystem::path& rulesDir,
                                                const PluginTables& plugins) {
  const LinterCatalog linters(plugins.linters, rulesDir);
  std::shared_ptr<Snapshot> snapshot(new Snapshot());
  snapshot->dictionary_ = std::move(dictionary);
  snapshot->lua_ = std::make_unique<LuaRuntime>(rulesDir);
  PipelineSettings settings = PipelineSettings::load(rulesDir / "pipeline.properties");

  snapshot->index_.assign(kAiSlots, -1);
  snapshot->compiled_.reserve(snapshot->dictionary_.ais.size());
  for (const AiDefinition& definition : snapshot->dictionary_.ais) {
    std::int32_t slot = aiSlot(definition.ai);
    if (slot < 0) throw SnapshotError("AI \"" + definition.ai + "\" is not 2 to 4 digits");
    if (snapshot->index_[static_cast<std::size_t>(slot)] >= 0)
      throw SnapshotError("AI " + definition.ai + " is defined twice");
    CompiledAi compiled{
        &definition, slot, formatSpecText(definition), "(" + definition.ai + ")", "/" + definition.ai + "/", {}, {},
        {},          {}};
    auto compilePattern = [](const AiPattern& pattern) {
      bool wildcard = pattern.text.find('n') != std::string::npos;
      return CompiledPattern{wildcard ? -1 : aiSlot(pattern.text), &pattern};
    };
    for (const RequiresRule& rule : definition.requirements) {
      auto& alternatives = compiled.requirements.emplace_back();
      for (const auto& alternative : rule.alternatives) {
        auto& members = alternatives.emplace_back();
        for (const AiPattern& pattern : alternative) members.push_back(compilePattern(pattern));
      }
    }
    for (const AiPattern& pattern : definition.excludes) compiled.excludes.push_back(compilePattern(pattern));
    for (const auto& sequence : definition.qualifierSequences) {
      auto& slots = compiled.qualifierSequences.emplace_back();
      for (const std::string& qualifier : sequence) {
        std::int32_t qualifierSlot = aiSlot(qualifier);
        if (qualifierSlot < 0)
          throw SnapshotError("AI " + definition.ai + ": qualifier \"" + qualifier + "\" is not an AI");
        slots.push_back(qualifierSlot);
      }
    }
    for (const ComponentSpec& component : definition.components) {
      CompiledComponent c{component.charset,   charsetCheck(component.charset, linters),
                          component.minLength, component.maxLength,
                          component.optional,  {}};
      for (const std::string& name : component.linters) {
        c.linters.push_back(resolveLinter(name, definition, *snapshot->lua_, linters));
      }
      compiled.components.push_back(std::move(c));
    }
    snapshot->index_[static_cast<std::size_t>(slot)] = static_cast<std::int32_t>(snapshot->compiled_.size());
    snapshot->compiled_.push_back(std::move(compiled));
  }

  for (const LinkType& linkType : snapshot->dictionary_.linkTypes) {
    if (linkType.selectable) snapshot->selectableLinkTypes_.push_back(linkType.id);
  }
  for (const std::string& id : snapshot->selectableLinkTypes_) snapshot->selectableLinkTypeIndex_.insert(id);

  snapshot->pipeline_ = buildPipeline(settings, plugins.ruleModules, *snapshot->lua_, rulesDir);
  return snapshot;
}

bool Snapshot::isSelectableLinkType(std::string_view id) const { return selectableLinkTypeIndex_.contains(id); }

const LinkType* Snapshot::findLinkType(std::string_view id) const {
  for (const LinkType& linkType : dictionary_.linkTypes) {
    if (linkType.id == id) return &linkType;
  }
  return nullptr;
}

}  // namespace codepayload
