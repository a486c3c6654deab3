#include "db/import/rule_import.h"

#include <cstdlib>
#include <fstream>

#include "db/import/atomic_replace.h"
#include "db/import/baseline_format.h"
#include "db/import/dictionary_checks.h"
#include "db/import/link_types_parser.h"
#include "db/import/release_parser.h"
#include "db/import/source_file.h"
#include "db/import/text_checks.h"
#include "db/migrations.h"
#include "db/rule_store.h"
#include "db/sqlite_connection.h"

namespace codepayload::importer {

namespace {

ImportSummary summarize(const Dictionary& dictionary, const std::filesystem::path& output) {
  return ImportSummary{dictionary.release.name, dictionary.ais.size(), dictionary.linkTypes.size(), output};
}

// The single answer of PRAGMA integrity_check is "ok" for a sound file.
void checkIntegrity(sqlite3* db) {
  sqlite::Statement integrity(db, "PRAGMA integrity_check");
  if (!integrity.step() || integrity.text(0) != "ok") {
    throw DbError("integrity check failed: " + std::string(integrity.text(0)));
  }
  sqlite::Statement foreignKeys(db, "PRAGMA foreign_key_check");
  if (foreignKeys.step()) throw DbError("foreign key check failed in table " + std::string(foreignKeys.text(0)));
}

void writeTextFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw ImportError(path.string() + ": cannot write");
}

// Refuses to replace the rules in `dbPath` by those of an older release. A
// database that cannot be read (damaged, another schema version) names no
// release to compare with: the import may replace it, as it always could.
void refuseDowngrade(const ReleaseInfo& incoming, const std::filesystem::path& source,
                     const std::filesystem::path& dbPath, Downgrade downgrade) {
  if (downgrade == Downgrade::Allow || !std::filesystem::exists(dbPath)) return;
  std::string current;
  try {
    current = readRulesRelease(dbPath).name;
  } catch (const DbError&) {
    return;
  }
  if (!isReleaseName(current) || !isReleaseName(incoming.name) || incoming.name >= current) return;
  throw ImportError(dbPath.string() + ": holds GS1 release " + current + ", newer than release " + incoming.name +
                    " of " + source.string() + "; importing it would replace newer rules by older ones " +
                    "(--allow-downgrade imports it anyway)");
}

}  // namespace

std::filesystem::path baselinePath(const std::filesystem::path& rulesDir) {
  return rulesDir / "baseline" / kBaselineFileName;
}

Dictionary loadRelease(const std::filesystem::path& releaseFile, const std::filesystem::path& linkTypesFile,
                       const LinterCatalog& linters) {
  const SourceFile release = readSourceFile(releaseFile);
  ParsedDictionary parsed = parseRelease(release.content, release.name);
  checkLinterImplementations(parsed, linters);
  const SourceFile linkTypes = readSourceFile(linkTypesFile);
  Dictionary& dictionary = parsed.dictionary;
  dictionary.release.sha256 = release.sha256;
  dictionary.release.linkTypesSourceFile = linkTypes.name;
  dictionary.release.linkTypesSha256 = linkTypes.sha256;
  dictionary.linkTypes = parseLinkTypes(linkTypes.content, linkTypes.name);
  return std::move(dictionary);
}

Dictionary loadBaseline(const std::filesystem::path& baselineFile, const LinterCatalog& linters) {
  const SourceFile baseline = readSourceFile(baselineFile);
  ParsedDictionary parsed = parseBaseline(baseline.content, baseline.name);
  checkLinterImplementations(parsed, linters);
  return std::move(parsed.dictionary);
}

void writeRulesDatabase(const Dictionary& dictionary, const std::filesystem::path& dbPath, const LinterCatalog& linters,
                        const std::filesystem::path& schemaDir) {
  try {
    replaceFileAtomically(dbPath, FileAccess::OwnerOnly, [&](const std::filesystem::path& temporary) {
      sqlite::Connection connection(temporary, sqlite::Connection::Mode::ReadWriteCreate);
      // A fresh file that is thrown away on failure needs no journal on disk.
      sqlite::execute(connection.handle(), "PRAGMA journal_mode = MEMORY", "setting the journal mode");
      applyMigrations(connection.handle(), rulesMigrationsDir(schemaDir));
      writeRules(connection.handle(), dictionary, linters);
      checkIntegrity(connection.handle());
      connection.close();
    });
  } catch (const DbError& error) {
    throw ImportError(dbPath.string() + ": " + error.what());
  }
}

ImportSummary importRelease(const ImportOptions& options, lint::LinterTable builtinLinters) {
  const LinterCatalog linters(builtinLinters, options.rulesDir);
  const Dictionary dictionary = loadRelease(options.releaseFile, options.linkTypesFile, linters);
  refuseDowngrade(dictionary.release, options.releaseFile, options.dbPath, options.downgrade);
  writeRulesDatabase(dictionary, options.dbPath, linters, options.schemaDir);
  return summarize(dictionary, options.dbPath);
}

ImportSummary importBaseline(const std::filesystem::path& baselineFile, const std::filesystem::path& dbPath,
                             const LinterCatalog& linters, const std::filesystem::path& schemaDir,
                             Downgrade downgrade) {
  const Dictionary dictionary = loadBaseline(baselineFile, linters);
  refuseDowngrade(dictionary.release, baselineFile, dbPath, downgrade);
  writeRulesDatabase(dictionary, dbPath, linters, schemaDir);
  return summarize(dictionary, dbPath);
}

ImportSummary writeBaseline(const std::filesystem::path& releaseFile, const std::filesystem::path& linkTypesFile,
                            const std::filesystem::path& outFile, const LinterCatalog& linters) {
  const Dictionary dictionary = loadRelease(releaseFile, linkTypesFile, linters);
  const std::string text = formatBaseline(dictionary);
  replaceFileAtomically(outFile, FileAccess::Readable,
                        [&text](const std::filesystem::path& temporary) { writeTextFile(temporary, text); });
  return summarize(dictionary, outFile);
}

}  // namespace codepayload::importer
