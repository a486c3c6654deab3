// What `--version` prints, the same three lines for every binary:
//   <program> <project version>
//   dictionary release <release of rules/baseline/dictionary.baseline>
//   commit <the git commit the build was configured from, or "unknown">
// All three are fixed when CMake configures the tree (cmake/BuildVersion.cmake).
#pragma once

#include <string>
#include <string_view>

namespace codepayload::app {

struct BuildVersion {
  std::string_view project;            // "1.0.0": CMake's project(VERSION)
  std::string_view dictionaryRelease;  // "2026-01-27"
  std::string_view gitCommit;          // 40 hex digits, or "unknown"
};

BuildVersion buildVersion();

// The three lines above, each ending in '\n'.
std::string versionText(std::string_view program);

}  // namespace codepayload::app
