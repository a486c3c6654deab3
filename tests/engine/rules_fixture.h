// Rule snapshots for engine tests, built from a GS1 release in ../shared/gs1
// (parsed by the import library) and the repository's rules/ folder.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "engine/payload_engine.h"
#include "engine/snapshot.h"

namespace codepayload::testing {

std::filesystem::path sharedGs1Dir();
std::filesystem::path sourceRulesDir();

// The dictionary of release `release` ("2026-01-27") with the link types.
Dictionary releaseDictionary(const std::string& release);

// A snapshot of `release` with the rules in `rulesDir` (default: the repo's rules/).
std::shared_ptr<const Snapshot> releaseSnapshot(const std::string& release,
                                                const std::filesystem::path& rulesDir = sourceRulesDir());

// The newest release, built once per test binary.
std::shared_ptr<const Snapshot> newestSnapshot();

// Runs one CodesRequest body through a PayloadEngine over `rules`; returns the
// response body, or "RequestError <path>: <message>".
std::string runRequest(std::shared_ptr<const Snapshot> rules, const std::string& body);

// Wraps one CodeDefinition object in {"codes":[...]} and runs it.
std::string runDefinition(std::shared_ptr<const Snapshot> rules, const std::string& definition);

// A temporary copy of the repo's rules/ folder (for tests that change the
// pipeline or add Lua files); removed with the object.
class TempRulesDir {
 public:
  TempRulesDir();
  ~TempRulesDir();
  const std::filesystem::path& path() const { return path_; }
  void write(const std::string& relativePath, const std::string& content) const;

 private:
  std::filesystem::path path_;
};

}  // namespace codepayload::testing
