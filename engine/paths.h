// Where the project's own files are found at run time. Each can be overridden
// by an environment variable; the defaults point into the source tree the
// binaries were built from, so a fresh checkout runs with nothing installed.
#pragma once

#include <filesystem>

namespace codepayload {

// rules/: baseline, Lua linters and modules, pipeline configuration.
// Override: CODEPAYLOAD_RULES_DIR.
std::filesystem::path rulesDir();

// db/: schema migrations. Override: CODEPAYLOAD_DB_DIR.
std::filesystem::path schemaDir();

// config/: codepayload.properties. Override: CODEPAYLOAD_CONFIG_DIR.
std::filesystem::path configDir();

}  // namespace codepayload
