// The two rule sources the case suite runs against: the project's shipped
// baseline (rules/baseline/dictionary.baseline, read through the import
// library) and a fresh parse of the newest GS1 release file in shared/gs1 with
// its link types. Each is built once, on first use, with the repository's
// rules/ folder (pipeline configuration, Lua linters and modules).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "engine/payload_engine.h"
#include "engine/snapshot.h"
#include "tests/cases/case_loader.h"

namespace codepayload::cases {

struct RuleSource {
  std::string description;                // "baseline <path>" or "release <path>"
  std::unique_ptr<SnapshotHolder> rules;  // null when the source could not be built
  std::unique_ptr<PayloadEngine> engine;
  std::string error;  // why it could not be built
};

const RuleSource& baselineRuleSource();
const RuleSource& releaseRuleSource();

// `operation` on `body`: PayloadEngine::generateJson or parseJson, into a
// string or a sink (`Output`).
template <typename Output>
bool runOperation(const PayloadEngine& engine, Operation operation, std::string_view body, Output& out,
                  RequestError& error, GenerateCounts* counts = nullptr) {
  return operation == Operation::Parse ? engine.parseJson(body, out, error, counts)
                                       : engine.generateJson(body, out, error, counts);
}

// The gs1-syntax-dictionary-<release>.txt in `gs1Dir` with the greatest
// release name; empty when there is none.
std::filesystem::path newestReleaseFile(const std::filesystem::path& gs1Dir);

}  // namespace codepayload::cases
