#include "tests/robustness/fault_support.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <random>

namespace codepayload::robustness {

namespace {

std::atomic<int> folderCounter{0};

}  // namespace

std::uint32_t robustnessSeed() {
  const char* text = std::getenv("CODEPAYLOAD_ROBUSTNESS_SEED");
  if (text == nullptr || *text == '\0') return 20260127u;
  return static_cast<std::uint32_t>(std::stoul(text));
}

std::filesystem::path releaseFile(const std::string& release) {
  return std::filesystem::path(CODEPAYLOAD_SHARED_GS1_DIR) / ("gs1-syntax-dictionary-" + release + ".txt");
}

std::filesystem::path linkTypesFile() { return std::filesystem::path(CODEPAYLOAD_SHARED_GS1_DIR) / "link-types.json"; }

std::vector<std::string> importArguments(const std::filesystem::path& database, const std::string& release) {
  // The tests swap releases both ways: an older one replaces a newer one too.
  return {"--db",         database.string(),        "--allow-downgrade",
          "--link-types", linkTypesFile().string(), releaseFile(release).string()};
}

TemporaryFolder::TemporaryFolder(const std::string& purpose) {
  std::random_device random;
  path_ =
      std::filesystem::temp_directory_path() / ("codepayload-robustness-" + purpose + "-" + std::to_string(::getpid()) +
                                                "-" + std::to_string(folderCounter++) + "-" + std::to_string(random()));
  std::filesystem::create_directories(path_);
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace codepayload::robustness
