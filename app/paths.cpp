#include "app/paths.h"

namespace codepayload::app {

std::filesystem::path defaultRulesDir() { return CODEPAYLOAD_SOURCE_RULES_DIR; }

std::filesystem::path defaultSchemaDir() { return CODEPAYLOAD_SOURCE_DB_DIR; }

std::filesystem::path defaultConfigDir() { return CODEPAYLOAD_SOURCE_CONFIG_DIR; }

}  // namespace codepayload::app
