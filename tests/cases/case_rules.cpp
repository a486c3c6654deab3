#include "tests/cases/case_rules.h"

#include <exception>
#include <functional>
#include <stdexcept>

#include "db/import/rule_import.h"
#include "plugins/builtin_plugins.h"

namespace codepayload::cases {

namespace {

const std::filesystem::path kRulesDir{CODEPAYLOAD_SOURCE_RULES_DIR};
const std::filesystem::path kSharedGs1Dir{CODEPAYLOAD_SHARED_GS1_DIR};

RuleSource buildSource(std::string description, const std::function<Dictionary()>& load) {
  RuleSource source;
  source.description = std::move(description);
  try {
    source.rules = std::make_unique<SnapshotHolder>(Snapshot::build(load(), kRulesDir, builtinPluginTables()));
    source.engine = std::make_unique<PayloadEngine>(*source.rules);
  } catch (const std::exception& e) {
    source.rules.reset();
    source.error = source.description + ": " + e.what();
  }
  return source;
}

}  // namespace

std::filesystem::path newestReleaseFile(const std::filesystem::path& gs1Dir) {
  const std::string prefix = "gs1-syntax-dictionary-";
  std::filesystem::path newest;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(gs1Dir, error)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.rfind(prefix, 0) != 0 || entry.path().extension() != ".txt") continue;
    if (newest.empty() || name > newest.filename().string()) newest = entry.path();
  }
  return newest;
}

const RuleSource& baselineRuleSource() {
  static const RuleSource source = [] {
    std::filesystem::path baseline = importer::baselinePath(kRulesDir);
    return buildSource("baseline " + baseline.string(),
                       [&] { return importer::loadBaseline(baseline, builtinLinterCatalog(kRulesDir)); });
  }();
  return source;
}

const RuleSource& releaseRuleSource() {
  static const RuleSource source = [] {
    std::filesystem::path release = newestReleaseFile(kSharedGs1Dir);
    std::filesystem::path linkTypes = kSharedGs1Dir / "link-types.json";
    return buildSource("release " + release.string(), [&] {
      if (release.empty()) throw std::runtime_error("no gs1-syntax-dictionary-*.txt in " + kSharedGs1Dir.string());
      return importer::loadRelease(release, linkTypes, builtinLinterCatalog(kRulesDir));
    });
  }();
  return source;
}

}  // namespace codepayload::cases
