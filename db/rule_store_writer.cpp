// writeRules: Dictionary -> rule tables.
#include <map>
#include <string>

#include "db/rule_store.h"
#include "db/sqlite_connection.h"
#include "engine/linter_catalog.h"

namespace codepayload {

namespace {

using sqlite::Statement;

std::int64_t ordinal(std::size_t index) { return static_cast<std::int64_t>(index) + 1; }

std::int64_t flag(bool value) { return value ? 1 : 0; }

void writeRelease(sqlite3* db, const ReleaseInfo& release) {
  Statement insert(db,
                   "INSERT INTO release (id, name, source_file, source_sha256, link_types_file,"
                   " link_types_sha256, imported_at)"
                   " VALUES (1, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))");
  insert.bind(1, release.name)
      .bind(2, release.sourceFile)
      .bind(3, release.sha256)
      .bind(4, release.linkTypesSourceFile)
      .bind(5, release.linkTypesSha256)
      .run();
}

void writeLinters(sqlite3* db, const Dictionary& dictionary, const LinterCatalog& catalog) {
  std::map<std::string, LinterSource> linters;
  for (const AiDefinition& ai : dictionary.ais) {
    for (const ComponentSpec& component : ai.components) {
      for (const std::string& name : component.linters) {
        if (linters.contains(name)) continue;
        const LinterSource source = catalog.find(name);
        if (source == LinterSource::None) throw DbError(catalog.missingImplementation(name, " (AI " + ai.ai + ")"));
        linters.emplace(name, source);
      }
    }
  }
  Statement insert(db, "INSERT INTO linter (name, implementation) VALUES (?, ?)");
  for (const auto& [name, source] : linters) {
    insert.bind(1, name).bind(2, source == LinterSource::Builtin ? "builtin" : "lua").run();
  }
}

void writeAis(sqlite3* db, const std::vector<AiDefinition>& ais) {
  Statement insertAi(db,
                     "INSERT INTO application_identifier (ai, title, fixed_length, dl_data_attribute, format_spec)"
                     " VALUES (?, ?, ?, ?, ?)");
  Statement insertComponent(db,
                            "INSERT INTO format_component (ai, position, charset, min_length, max_length, optional)"
                            " VALUES (?, ?, ?, ?, ?, ?)");
  Statement insertLinter(db,
                         "INSERT INTO component_linter (ai, component_position, position, linter) VALUES (?, ?, ?, ?)");
  Statement insertRequires(db,
                           "INSERT INTO ai_requires (ai, rule_no, alternative_no, member_position, pattern)"
                           " VALUES (?, ?, ?, ?, ?)");
  Statement insertExcludes(db, "INSERT INTO ai_excludes (ai, position, pattern) VALUES (?, ?, ?)");

  for (const AiDefinition& ai : ais) {
    insertAi.bind(1, ai.ai)
        .bind(2, ai.title)
        .bind(3, flag(ai.fixedLength))
        .bind(4, flag(ai.digitalLinkDataAttribute))
        .bind(5, formatSpecText(ai))
        .run();
    for (std::size_t c = 0; c < ai.components.size(); ++c) {
      const ComponentSpec& component = ai.components[c];
      const char charset = static_cast<char>(component.charset);
      insertComponent.bind(1, ai.ai)
          .bind(2, ordinal(c))
          .bind(3, std::string_view(&charset, 1))
          .bind(4, std::int64_t{component.minLength})
          .bind(5, std::int64_t{component.maxLength})
          .bind(6, flag(component.optional))
          .run();
      for (std::size_t l = 0; l < component.linters.size(); ++l) {
        insertLinter.bind(1, ai.ai).bind(2, ordinal(c)).bind(3, ordinal(l)).bind(4, component.linters[l]).run();
      }
    }
    for (std::size_t r = 0; r < ai.requirements.size(); ++r) {
      const RequiresRule& rule = ai.requirements[r];
      for (std::size_t a = 0; a < rule.alternatives.size(); ++a) {
        for (std::size_t m = 0; m < rule.alternatives[a].size(); ++m) {
          insertRequires.bind(1, ai.ai)
              .bind(2, ordinal(r))
              .bind(3, ordinal(a))
              .bind(4, ordinal(m))
              .bind(5, rule.alternatives[a][m].text)
              .run();
        }
      }
    }
    for (std::size_t e = 0; e < ai.excludes.size(); ++e) {
      insertExcludes.bind(1, ai.ai).bind(2, ordinal(e)).bind(3, ai.excludes[e].text).run();
    }
  }
}

// After all AIs exist: qualifiers reference other AIs.
void writePrimaryKeys(sqlite3* db, const std::vector<AiDefinition>& ais) {
  Statement insertKey(db, "INSERT INTO dl_primary_key (ai) VALUES (?)");
  Statement insertQualifier(db,
                            "INSERT INTO dl_qualifier (primary_key, sequence_no, position, qualifier_ai)"
                            " VALUES (?, ?, ?, ?)");
  for (const AiDefinition& ai : ais) {
    if (!ai.digitalLinkPrimaryKey) {
      if (!ai.qualifierSequences.empty()) {
        throw DbError("AI " + ai.ai + " has qualifier sequences but is not a Digital Link primary key");
      }
      continue;
    }
    insertKey.bind(1, ai.ai).run();
    for (std::size_t s = 0; s < ai.qualifierSequences.size(); ++s) {
      const std::vector<std::string>& sequence = ai.qualifierSequences[s];
      if (sequence.empty()) throw DbError("AI " + ai.ai + " has an empty qualifier sequence");
      for (std::size_t q = 0; q < sequence.size(); ++q) {
        insertQualifier.bind(1, ai.ai).bind(2, ordinal(s)).bind(3, ordinal(q)).bind(4, sequence[q]).run();
      }
    }
  }
}

void writeLinkTypes(sqlite3* db, const std::vector<LinkType>& linkTypes) {
  Statement insertType(db,
                       "INSERT INTO link_type (id, position, title, description, uri, status, deprecated, selectable)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  Statement insertRestriction(db,
                              "INSERT INTO link_type_restriction (link_type, position, restriction) VALUES (?, ?, ?)");
  for (std::size_t i = 0; i < linkTypes.size(); ++i) {
    const LinkType& type = linkTypes[i];
    insertType.bind(1, type.id)
        .bind(2, ordinal(i))
        .bind(3, type.title)
        .bind(4, type.description)
        .bind(5, type.uri)
        .bind(6, type.status)
        .bind(7, flag(type.deprecated))
        .bind(8, flag(type.selectable))
        .run();
    for (std::size_t r = 0; r < type.restricted.size(); ++r) {
      insertRestriction.bind(1, type.id).bind(2, ordinal(r)).bind(3, type.restricted[r]).run();
    }
  }
}

void writeEverything(sqlite3* db, const Dictionary& dictionary, const LinterCatalog& linters) {
  writeRelease(db, dictionary.release);
  writeLinters(db, dictionary, linters);
  writeAis(db, dictionary.ais);
  writePrimaryKeys(db, dictionary.ais);
  writeLinkTypes(db, dictionary.linkTypes);
}

}  // namespace

std::filesystem::path rulesMigrationsDir(const std::filesystem::path& schemaDir) { return schemaDir / "rules"; }

void writeRules(sqlite3* db, const Dictionary& dictionary, const LinterCatalog& linters) {
  sqlite::execute(db, "BEGIN IMMEDIATE", "starting to write the rules");
  try {
    writeEverything(db, dictionary, linters);
    sqlite::execute(db, "COMMIT", "committing the rules");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace codepayload
