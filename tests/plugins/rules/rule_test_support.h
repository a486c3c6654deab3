// What the rule-module tests share: the shipped rules (the baseline dictionary
// of rules/baseline with the repository's rules/ folder), the shipped pipeline
// settings, and one code definition with its ItemContext built the way the
// engine builds it (engine/item_processor.cpp), so that a test can run one
// module over it and read the errors and the item state it leaves.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/item.h"
#include "engine/model.h"
#include "engine/pipeline.h"
#include "engine/snapshot.h"

namespace codepayload {

// Readable gtest failure messages for ValidationError and vectors of them.
void PrintTo(const ValidationError& error, std::ostream* out);

}  // namespace codepayload

namespace codepayload::testing {

// The snapshot of rules/baseline/dictionary.baseline with the repository's
// rules/ folder (built once per test binary).
const Snapshot& baselineRules();

// The snapshot of GS1 release `release` ("2022-08-10") from ../shared/gs1 with
// the repository's rules/ folder (built once per release and test binary).
const Snapshot& releaseRules(const std::string& release);

// rules/pipeline.properties of the repository, parsed.
const PipelineSettings& shippedSettings();

// The section module.<name> of rules/pipeline.properties (empty when it has none).
const ModuleSettings& shippedModuleSettings(std::string_view name);

// The C++ module registered as `name`, started from `settings`; throws
// std::invalid_argument when no module has that name.
RuleModuleStart startModule(std::string_view name, const ModuleSettings& settings);

// The running module registered as `name`, created from `settings` (the
// shipped section by default); throws std::invalid_argument when no module has
// that name or it switches itself off.
std::unique_ptr<RuleModule> makeModule(std::string_view name, const ModuleSettings& settings);
std::unique_ptr<RuleModule> makeModule(std::string_view name);

// The state the shipped pipeline lists for `name`; throws std::invalid_argument
// when the shipped pipeline has no such step.
const ModuleState& shippedModuleState(std::string_view name);

struct TestAi {
  std::string key;
  std::string value;
};

// A CodeDefinition that owns its text (the engine's definitions are views into
// the request buffer).
struct TestDefinition {
  TestAi primaryKey{};
  std::vector<TestAi> ais{};
  std::vector<TestAi> extensionParameters{};
  std::optional<std::string> digitalLinkStem{};
  std::optional<std::string> linkType{};
  std::optional<std::string> context{};
};

inline constexpr std::string_view kStem = "https://id.example.com";

// One code definition under test: its ItemContext is constructed as the engine
// constructs it before the pipeline runs (every AI resolved, nothing else done).
class TestItem {
 public:
  explicit TestItem(TestDefinition definition, const Snapshot& rules = baselineRules());
  TestItem(const TestItem&) = delete;
  TestItem& operator=(const TestItem&) = delete;

  ItemContext& context() { return context_; }
  ItemAi& ai(std::size_t index) { return context_.ais()[index]; }
  ItemAi& primaryKey() { return context_.primaryKey(); }

  // Runs `module` over the item; returns every error the item has so far.
  const std::vector<ValidationError>& run(const RuleModule& module);
  // Runs the module registered as `name`, created from the shipped settings.
  const std::vector<ValidationError>& run(std::string_view name);

  const std::vector<ValidationError>& errors() const { return errors_; }

 private:
  TestDefinition owned_;
  CodeDefinition definition_;
  std::vector<ValidationError> errors_;
  std::vector<ItemAi> aiStorage_;
  ItemContext context_;
};

using Errors = std::vector<ValidationError>;

// The error the item lists: code, path and args exactly.
ValidationError error(std::string code, std::optional<std::string> path, std::vector<std::string> args);

}  // namespace codepayload::testing
