#include "app/version.h"

#include "app/build_version.h"

namespace codepayload::app {

BuildVersion buildVersion() {
  return BuildVersion{CODEPAYLOAD_PROJECT_VERSION, CODEPAYLOAD_DICTIONARY_RELEASE, CODEPAYLOAD_GIT_COMMIT};
}

std::string versionText(std::string_view program) {
  const BuildVersion version = buildVersion();
  return std::string(program) + " " + std::string(version.project) + "\ndictionary release " +
         std::string(version.dictionaryRelease) + "\ncommit " + std::string(version.gitCommit) + "\n";
}

}  // namespace codepayload::app
