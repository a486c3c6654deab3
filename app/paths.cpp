#include "app/paths.h"

namespace codepayload::app {

std::filesystem::path defaultRulesDir() { return CODEPAYLOAD_DEFAULT_RULES_DIR; }

std::filesystem::path defaultSchemaDir() { return CODEPAYLOAD_DEFAULT_DB_DIR; }

std::filesystem::path defaultConfigDir() { return CODEPAYLOAD_DEFAULT_CONFIG_DIR; }

}  // namespace codepayload::app
