// Where the project's own files are found when nothing else is configured:
// folders of the source tree the binaries were built from, so a fresh
// checkout runs with nothing installed; in a build for installation
// (CODEPAYLOAD_PACKAGE), /usr/share/codepayload and /etc/codepayload (D-V4). The settings module (settings.h)
// applies CODEPAYLOAD_CONFIG_DIR, CODEPAYLOAD_RULES_DIR and CODEPAYLOAD_DB_DIR
// on top of these; nothing below app/ reads the environment.
#pragma once

#include <filesystem>

namespace codepayload::app {

// rules/: baseline, Lua linters and modules, pipeline configuration.
std::filesystem::path defaultRulesDir();

// db/: schema migrations (db/rules, db/registry).
std::filesystem::path defaultSchemaDir();

// config/: codepayload.properties.
std::filesystem::path defaultConfigDir();

}  // namespace codepayload::app
