// The rule snapshot the engine's fuzz targets run on: the shipped baseline
// with the rules folder the binaries find (app/paths.h).
#pragma once

#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "app/paths.h"
#include "db/import/baseline_format.h"
#include "engine/snapshot.h"
#include "plugins/builtin_plugins.h"
#include "tests/fuzz/fuzz_check.h"

namespace codepayload::fuzz {

inline std::shared_ptr<const Snapshot> baselineSnapshot() {
  const std::filesystem::path rules = app::defaultRulesDir();
  const std::filesystem::path baseline = rules / "baseline" / importer::kBaselineFileName;
  std::ifstream file(baseline, std::ios::binary);
  require(file.good(), "the baseline file can be read", baseline.string());
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  return Snapshot::build(importer::parseBaseline(text, importer::kBaselineFileName).dictionary, rules,
                         builtinPluginTables());
}

}  // namespace codepayload::fuzz
