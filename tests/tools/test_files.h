// Test helpers for files: a temporary folder removed at the end of the test
// (tests/support/temp_dir.h), whole-file reading and writing, and the listing
// of a folder.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace codepayload::testing {

// Sets a umask for one test and restores the previous one.
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : previous_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(previous_); }
  ScopedUmask(const ScopedUmask&) = delete;
  ScopedUmask& operator=(const ScopedUmask&) = delete;

 private:
  mode_t previous_;
};

// The permission bits of `path` (0600, 0755, ...).
inline mode_t fileMode(const std::filesystem::path& path) {
  struct stat status {};
  EXPECT_EQ(::stat(path.c_str(), &status), 0) << path;
  return status.st_mode & 07777;
}

inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream content;
  content << in.rdbuf();
  return std::move(content).str();
}

inline void writeFile(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// The names in a folder, sorted.
inline std::set<std::string> listFolder(const std::filesystem::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) names.insert(entry.path().filename().string());
  return names;
}

inline const std::filesystem::path& sharedGs1Dir() {
  static const std::filesystem::path dir(CODEPAYLOAD_SHARED_GS1_DIR);
  return dir;
}

inline std::filesystem::path releaseFile(const std::string& release) {
  return sharedGs1Dir() / ("gs1-syntax-dictionary-" + release + ".txt");
}

inline std::filesystem::path linkTypesFile() { return sharedGs1Dir() / "link-types.json"; }

// Every release in the shared folder, oldest first ("2022-08-10", ...).
inline std::vector<std::string> allReleases() {
  std::vector<std::string> releases;
  for (const auto& entry : std::filesystem::directory_iterator(sharedGs1Dir())) {
    const std::string name = entry.path().filename().string();
    constexpr std::string_view kPrefix = "gs1-syntax-dictionary-";
    if (name.starts_with(kPrefix) && name.ends_with(".txt")) {
      releases.push_back(name.substr(kPrefix.size(), name.size() - kPrefix.size() - 4));
    }
  }
  std::sort(releases.begin(), releases.end());
  return releases;
}

// The releases every tool must import: 2024-06-10 and later.
inline std::vector<std::string> currentReleases() {
  std::vector<std::string> releases;
  for (const std::string& release : allReleases()) {
    if (release >= "2024-06-10") releases.push_back(release);
  }
  return releases;
}

}  // namespace codepayload::testing
