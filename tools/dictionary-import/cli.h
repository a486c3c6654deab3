// The codepayload-import command line (the names are stable; scripts use them):
//
//   codepayload-import [--db PATH] [--rules-dir DIR] [--allow-downgrade] --link-types FILE RELEASE.txt
//   codepayload-import [--db PATH] [--rules-dir DIR] [--allow-downgrade] --baseline FILE
//   codepayload-import --write-baseline OUT [--rules-dir DIR] --link-types FILE RELEASE.txt
//   codepayload-import --publish [--rules-dir DIR] [--allow-downgrade] --link-types FILE RELEASE.txt
//   codepayload-import --publish [--rules-dir DIR] [--allow-downgrade] --baseline FILE
//   codepayload-import --help | --version
//
// The defaults (data dir, rules and schema folders) are the settings every
// binary shares (app/settings.h); a settings refusal exits 78 (main.cpp).
// Success: exit 0 and one JSON line on stdout,
//   {"release":"2026-01-27","ais":541,"linkTypes":60,"db":"data/rules.db"}
// ("baseline" instead of "db" with --write-baseline). --publish builds the
// rule database in a scratch folder and publishes it to the PostgreSQL
// registry of registry.url, which every instance serves within seconds; it
// prints "registry", "publication" and "sha256" instead of "db". Failure:
// exit 1, the error ("<file>:<line>: <cause>") on stderr; a registry that
// cannot be used (no registry.url, a server out of reach): exit 78. Usage
// error: exit 2. The rule
// database is written 0600; when group or others can enter its folder, one
// warning line on stderr says so (and how to fix it) before the import.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "app/settings.h"
#include "db/import/rule_import.h"

namespace codepayload::importer {

struct CliCommand {
  enum class Mode { ImportRelease, ImportBaseline, WriteBaseline, Help, Version };
  Mode mode = Mode::Help;
  bool publish = false;                     // --publish: to the registry instead of --db
  ImportOptions options;                    // release, link types, db, rules dir
  std::filesystem::path baselineFile;       // --baseline
  std::filesystem::path writeBaselineFile;  // --write-baseline
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws UsageError. `settings` gives the defaults of --db and --rules-dir
// and the schema folder.
CliCommand parseCommandLine(const std::vector<std::string>& arguments, const app::Settings& settings);

// The summary as the one JSON line printed on success (without newline).
std::string summaryJson(const ImportSummary& summary, std::string_view outputKey);

// Runs the tool; returns the exit code.
int runCommandLine(const std::vector<std::string>& arguments, const app::Settings& settings, std::ostream& out,
                   std::ostream& err);

extern const char* const kUsage;

}  // namespace codepayload::importer
