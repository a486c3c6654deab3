// What the fault tests share: the seed of their random kill moments, the GS1
// release files and codepayload-import's arguments, and temporary folders.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace codepayload::robustness {

// CODEPAYLOAD_ROBUSTNESS_SEED when set (decimal), else 20260127. Tests print
// it, so a failing sequence of kill moments can be replayed.
std::uint32_t robustnessSeed();

// <shared gs1>/gs1-syntax-dictionary-<release>.txt and link-types.json.
std::filesystem::path releaseFile(const std::string& release);
std::filesystem::path linkTypesFile();

// The arguments of codepayload-import for `release` into `database`.
std::vector<std::string> importArguments(const std::filesystem::path& database, const std::string& release);

// A fresh folder under the system temporary folder, removed with the object.
class TemporaryFolder {
 public:
  explicit TemporaryFolder(const std::string& purpose);
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace codepayload::robustness
