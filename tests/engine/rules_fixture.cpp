#include "tests/engine/rules_fixture.h"

#include <unistd.h>

#include <fstream>
#include <map>
#include <mutex>
#include <random>

#include "db/import/link_types_parser.h"
#include "db/import/release_parser.h"
#include "db/import/source_file.h"
#include "plugins/builtin_plugins.h"

namespace codepayload::testing {

std::filesystem::path sharedGs1Dir() { return CODEPAYLOAD_SHARED_GS1_DIR; }
std::filesystem::path sourceRulesDir() { return CODEPAYLOAD_SOURCE_RULES_DIR; }

Dictionary releaseDictionary(const std::string& release) {
  importer::SourceFile file = importer::readSourceFile(sharedGs1Dir() / ("gs1-syntax-dictionary-" + release + ".txt"));
  importer::SourceFile linkTypes = importer::readSourceFile(sharedGs1Dir() / "link-types.json");
  Dictionary dictionary = importer::parseRelease(file.content, file.name).dictionary;
  dictionary.release.sha256 = file.sha256;
  dictionary.linkTypes = importer::parseLinkTypes(linkTypes.content, linkTypes.name);
  dictionary.release.linkTypesSourceFile = linkTypes.name;
  dictionary.release.linkTypesSha256 = linkTypes.sha256;
  return dictionary;
}

std::shared_ptr<const Snapshot> releaseSnapshot(const std::string& release, const std::filesystem::path& rulesDir) {
  return Snapshot::build(releaseDictionary(release), rulesDir, builtinPluginTables());
}

std::shared_ptr<const Snapshot> newestSnapshot() {
  static std::shared_ptr<const Snapshot> snapshot = releaseSnapshot("2026-01-27");
  return snapshot;
}

std::string runRequest(std::shared_ptr<const Snapshot> rules, const std::string& body) {
  SnapshotHolder holder(std::move(rules));
  PayloadEngine engine(holder);
  std::string out;
  RequestError error{};
  if (!engine.generateJson(body, out, error)) return "RequestError " + error.path + ": " + error.message;
  return out;
}

std::string runDefinition(std::shared_ptr<const Snapshot> rules, const std::string& definition) {
  return runRequest(std::move(rules), "{\"codes\":[" + definition + "]}");
}

TempRulesDir::TempRulesDir() {
  std::random_device random;
  path_ = std::filesystem::temp_directory_path() /
          ("codepayload-rules-" + std::to_string(::getpid()) + "-" + std::to_string(random()));
  std::filesystem::copy(sourceRulesDir(), path_, std::filesystem::copy_options::recursive);
}

TempRulesDir::~TempRulesDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

void TempRulesDir::write(const std::string& relativePath, const std::string& content) const {
  std::filesystem::path file = path_ / relativePath;
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary | std::ios::trunc) << content;
}

}  // namespace codepayload::testing
