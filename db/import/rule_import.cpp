#include "db/import/rule_import.h"

#include <cstdlib>
#include <fstream>

#include "db/migrations.h"
#include "db/rule_store.h"
#include "db/sqlite_connection.h"
#include "db/import/atomic_replace.h"
#include "db/import/baseline_format.h"
#include "db/import/dictionary_checks.h"
#include "db/import/link_types_parser.h"
#include "db/import/release_parser.h"
#include "db/import/source_file.h"

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

}  // namespace

std::filesystem::path baselinePath(const std::filesystem::path& rulesDir) {
  return rulesDir / "baseline" / kBaselineFileName;
}

Dictionary loadRelease(const std::filesystem::path& releaseFile, const std::filesystem::path& linkTypesFile,
                       const std::filesystem::path& rulesDir) {
  const SourceFile release = readSourceFile(releaseFile);
  ParsedDictionary parsed = parseRelease(release.content, release.name);
  checkLinterImplementations(parsed, rulesDir);
  const SourceFile linkTypes = readSourceFile(linkTypesFile);
  Dictionary& dictionary = parsed.dictionary;
  dictionary.release.sha256 = release.sha256;
  dictionary.release.linkTypesSourceFile = linkTypes.name;
  dictionary.release.linkTypesSha256 = linkTypes.sha256;
  dictionary.linkTypes = parseLinkTypes(linkTypes.content, linkTypes.name);
  return std::move(dictionary);
}

Dictionary loadBaseline(const std::filesystem::path& baselineFile, const std::filesystem::path& rulesDir) {
  const SourceFile baseline = readSourceFile(baselineFile);
  ParsedDictionary parsed = parseBaseline(baseline.content, baseline.name);
  checkLinterImplementations(parsed, rulesDir);
  return std::move(parsed.dictionary);
}

void writeRulesDatabase(const Dictionary& dictionary, const std::filesystem::path& dbPath,
                        const std::filesystem::path& rulesDir, const std::filesystem::path& schemaDir) {
  try {
    replaceFileAtomically(dbPath, FileAccess::OwnerOnly, [&](const std::filesystem::path& temporary) {
      sqlite::Connection connection(temporary, sqlite::Connection::Mode::ReadWriteCreate);
      // A fresh file that is thrown away on failure needs no journal on disk.
      sqlite::execute(connection.handle(), "PRAGMA journal_mode = MEMORY", "setting the journal mode");
      applyMigrations(connection.handle(), rulesMigrationsDir(schemaDir));
      writeRules(connection.handle(), dictionary, rulesDir);
      checkIntegrity(connection.handle());
      connection.close();
    });
  } catch (const DbError& error) {
    throw ImportError(dbPath.string() + ": " + error.what());
  }
}

ImportSummary importRelease(const ImportOptions& options) {
  const Dictionary dictionary = loadRelease(options.releaseFile, options.linkTypesFile, options.rulesDir);
  writeRulesDatabase(dictionary, options.dbPath, options.rulesDir, options.schemaDir);
  return summarize(dictionary, options.dbPath);
}

ImportSummary importBaseline(const std::filesystem::path& baselineFile, const std::filesystem::path& dbPath,
                             const std::filesystem::path& rulesDir, const std::filesystem::path& schemaDir) {
  const Dictionary dictionary = loadBaseline(baselineFile, rulesDir);
  writeRulesDatabase(dictionary, dbPath, rulesDir, schemaDir);
  return summarize(dictionary, dbPath);
}

ImportSummary writeBaseline(const std::filesystem::path& releaseFile, const std::filesystem::path& linkTypesFile,
                            const std::filesystem::path& outFile, const std::filesystem::path& rulesDir) {
  const Dictionary dictionary = loadRelease(releaseFile, linkTypesFile, rulesDir);
  const std::string text = formatBaseline(dictionary);
  replaceFileAtomically(outFile, FileAccess::Readable,
                        [&text](const std::filesystem::path& temporary) { writeTextFile(temporary, text); });
  return summarize(dictionary, outFile);
}

}  // namespace codepayload::importer
