// The import library's front door, used by the codepayload-import CLI and by
// the server (first start: importBaseline). Every failure throws ImportError:
// "<file>:<line>: <cause>" for a bad input line, "<file>: <cause>" otherwise;
// the target database or baseline is then untouched.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "db/import/import_error.h"
#include "engine/dictionary.h"
#include "engine/linter_catalog.h"

namespace codepayload::importer {

// rulesDir/baseline/dictionary.baseline
std::filesystem::path baselinePath(const std::filesystem::path& rulesDir);

// Whether an import may replace the rules of a newer GS1 release by those of
// an older one (release names are dates, 2026-01-27).
enum class Downgrade { Refuse, Allow };

struct ImportOptions {
  std::filesystem::path releaseFile;    // gs1-syntax-dictionary-<release>.txt
  std::filesystem::path linkTypesFile;  // link-types.json
  std::filesystem::path dbPath;         // the rule database written
  std::filesystem::path rulesDir;       // Lua linters: rulesDir/linters/<name>.lua
  std::filesystem::path schemaDir;      // migrations: schemaDir/rules/
  Downgrade downgrade = Downgrade::Refuse;
};

struct ImportSummary {
  std::string release;  // "2026-01-27"
  std::size_t ais = 0;  // AIs after range expansion
  std::size_t linkTypes = 0;
  std::filesystem::path output;  // the database (or baseline) written

  bool operator==(const ImportSummary&) const = default;
};

// Parses and checks a release and its link types (linters resolved in
// `linters`) without writing anything.
Dictionary loadRelease(const std::filesystem::path& releaseFile, const std::filesystem::path& linkTypesFile,
                       const LinterCatalog& linters);

// Parses and checks a baseline file without writing anything.
Dictionary loadBaseline(const std::filesystem::path& baselineFile, const LinterCatalog& linters);

// Builds a new rule database from a GS1 release and swaps it in atomically;
// linters are looked up in `builtinLinters` and options.rulesDir. Unless
// options.downgrade allows it, a database holding a newer release is refused:
// "<db>: holds GS1 release <newer>, newer than release <older> of <file>; ...".
ImportSummary importRelease(const ImportOptions& options, lint::LinterTable builtinLinters);

// The same from a baseline file (the server's first start).
ImportSummary importBaseline(const std::filesystem::path& baselineFile, const std::filesystem::path& dbPath,
                             const LinterCatalog& linters, const std::filesystem::path& schemaDir,
                             Downgrade downgrade = Downgrade::Refuse);

// Writes the baseline text of a release atomically to `outFile`.
ImportSummary writeBaseline(const std::filesystem::path& releaseFile, const std::filesystem::path& linkTypesFile,
                            const std::filesystem::path& outFile, const LinterCatalog& linters);

// Writes `dictionary` as a complete rule database at `dbPath`, atomically,
// readable by its owner only (an existing file loses any group or other bit).
void writeRulesDatabase(const Dictionary& dictionary, const std::filesystem::path& dbPath, const LinterCatalog& linters,
                        const std::filesystem::path& schemaDir);

}  // namespace codepayload::importer
