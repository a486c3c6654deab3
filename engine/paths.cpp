#include "engine/paths.h"

#include <cstdlib>

namespace codepayload {

namespace {

std::filesystem::path fromEnvironment(const char* variable, const char* fallback) {
  const char* value = std::getenv(variable);
  return (value != nullptr && *value != '\0') ? std::filesystem::path(value) : std::filesystem::path(fallback);
}

}  // namespace

std::filesystem::path rulesDir() { return fromEnvironment("CODEPAYLOAD_RULES_DIR", CODEPAYLOAD_SOURCE_RULES_DIR); }

std::filesystem::path schemaDir() { return fromEnvironment("CODEPAYLOAD_DB_DIR", CODEPAYLOAD_SOURCE_DB_DIR); }

std::filesystem::path configDir() { return fromEnvironment("CODEPAYLOAD_CONFIG_DIR", CODEPAYLOAD_SOURCE_CONFIG_DIR); }

}  // namespace codepayload
