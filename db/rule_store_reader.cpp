// readRules: rule tables -> Dictionary.
#include <string>
#include <unordered_map>

#include "db/migrations.h"
#include "db/rule_store.h"
#include "db/sqlite_connection.h"

namespace codepayload {

namespace {

using sqlite::Statement;

// Ordinals are written 1, 2, 3, ...; a row that does not continue the sequence
// means the tables were edited by hand.
void expectOrdinal(std::int64_t actual, std::size_t expectedIndex, const std::string& what) {
  if (actual != static_cast<std::int64_t>(expectedIndex) + 1) {
    throw DbError("rule database: " + what + " is numbered " + std::to_string(actual) + ", expected " +
                  std::to_string(expectedIndex + 1));
  }
}

// For a group number read in order (rule_no, sequence_no, ...): the group
// being filled when the number repeats, a new group when it is the next one.
template <typename Group>
Group& currentOrNext(std::vector<Group>& groups, std::int64_t number, const std::string& what) {
  if (!groups.empty() && number == static_cast<std::int64_t>(groups.size())) return groups.back();
  expectOrdinal(number, groups.size(), what);
  return groups.emplace_back();
}

ReleaseInfo readRelease(sqlite3* db) {
  Statement query(db, "SELECT name, source_file, source_sha256, link_types_file, link_types_sha256 FROM release");
  if (!query.step()) throw DbError("rule database: the release table is empty");
  ReleaseInfo release;
  release.name = query.text(0);
  release.sourceFile = query.text(1);
  release.sha256 = query.text(2);
  release.linkTypesSourceFile = query.text(3);
  release.linkTypesSha256 = query.text(4);
  return release;
}

class AiIndex {
 public:
  explicit AiIndex(std::vector<AiDefinition>& ais) : ais_(ais) {
    for (std::size_t i = 0; i < ais.size(); ++i) slots_.emplace(ais[i].ai, i);
  }

  AiDefinition& at(std::string_view ai, const char* table) {
    auto it = slots_.find(std::string(ai));
    if (it == slots_.end()) {
      throw DbError("rule database: " + std::string(table) + " names unknown AI " + std::string(ai));
    }
    return ais_[it->second];
  }

 private:
  std::vector<AiDefinition>& ais_;
  std::unordered_map<std::string, std::size_t> slots_;
};

std::vector<AiDefinition> readAis(sqlite3* db) {
  std::vector<AiDefinition> ais;
  Statement query(db, "SELECT ai, title, fixed_length, dl_data_attribute FROM application_identifier ORDER BY ai");
  while (query.step()) {
    AiDefinition& ai = ais.emplace_back();
    ai.ai = query.text(0);
    ai.title = query.text(1);
    ai.fixedLength = query.integer(2) != 0;
    ai.digitalLinkDataAttribute = query.integer(3) != 0;
  }
  return ais;
}

void readComponents(sqlite3* db, AiIndex& index) {
  Statement components(db,
                       "SELECT ai, position, charset, min_length, max_length, optional FROM format_component"
                       " ORDER BY ai, position");
  while (components.step()) {
    AiDefinition& ai = index.at(components.text(0), "format_component");
    expectOrdinal(components.integer(1), ai.components.size(), "format component of AI " + ai.ai);
    ComponentSpec& component = ai.components.emplace_back();
    component.charset = static_cast<CharacterSet>(components.text(2).front());
    component.minLength = static_cast<std::uint16_t>(components.integer(3));
    component.maxLength = static_cast<std::uint16_t>(components.integer(4));
    component.optional = components.integer(5) != 0;
  }
  Statement linters(db,
                    "SELECT ai, component_position, position, linter FROM component_linter"
                    " ORDER BY ai, component_position, position");
  while (linters.step()) {
    AiDefinition& ai = index.at(linters.text(0), "component_linter");
    // The foreign key guarantees the component exists.
    ComponentSpec& component = ai.components.at(static_cast<std::size_t>(linters.integer(1) - 1));
    expectOrdinal(linters.integer(2), component.linters.size(), "linter of AI " + ai.ai);
    component.linters.emplace_back(linters.text(3));
  }
}

void readRelations(sqlite3* db, AiIndex& index) {
  Statement requirements(db,
                         "SELECT ai, rule_no, alternative_no, member_position, pattern FROM ai_requires"
                         " ORDER BY ai, rule_no, alternative_no, member_position");
  while (requirements.step()) {
    AiDefinition& ai = index.at(requirements.text(0), "ai_requires");
    const std::string what = "req= of AI " + ai.ai;
    RequiresRule& rule = currentOrNext(ai.requirements, requirements.integer(1), what);
    std::vector<AiPattern>& alternative = currentOrNext(rule.alternatives, requirements.integer(2), what);
    expectOrdinal(requirements.integer(3), alternative.size(), what);
    alternative.push_back(AiPattern{std::string(requirements.text(4))});
  }
  Statement excludes(db, "SELECT ai, position, pattern FROM ai_excludes ORDER BY ai, position");
  while (excludes.step()) {
    AiDefinition& ai = index.at(excludes.text(0), "ai_excludes");
    expectOrdinal(excludes.integer(1), ai.excludes.size(), "ex= of AI " + ai.ai);
    ai.excludes.push_back(AiPattern{std::string(excludes.text(2))});
  }
}

void readPrimaryKeys(sqlite3* db, AiIndex& index) {
  Statement keys(db, "SELECT ai FROM dl_primary_key");
  while (keys.step()) index.at(keys.text(0), "dl_primary_key").digitalLinkPrimaryKey = true;
  Statement qualifiers(db,
                       "SELECT primary_key, sequence_no, position, qualifier_ai FROM dl_qualifier"
                       " ORDER BY primary_key, sequence_no, position");
  while (qualifiers.step()) {
    AiDefinition& ai = index.at(qualifiers.text(0), "dl_qualifier");
    const std::string what = "dlpkey= of AI " + ai.ai;
    std::vector<std::string>& sequence = currentOrNext(ai.qualifierSequences, qualifiers.integer(1), what);
    expectOrdinal(qualifiers.integer(2), sequence.size(), what);
    sequence.emplace_back(qualifiers.text(3));
  }
}

std::vector<LinkType> readLinkTypes(sqlite3* db) {
  std::vector<LinkType> linkTypes;
  std::unordered_map<std::string, std::size_t> slots;
  Statement types(db,
                  "SELECT id, position, title, description, uri, status, deprecated, selectable FROM link_type"
                  " ORDER BY position");
  while (types.step()) {
    expectOrdinal(types.integer(1), linkTypes.size(), "link type " + std::string(types.text(0)));
    LinkType& type = linkTypes.emplace_back();
    type.id = types.text(0);
    type.title = types.text(2);
    type.description = types.text(3);
    type.uri = types.text(4);
    type.status = types.text(5);
    type.deprecated = types.integer(6) != 0;
    type.selectable = types.integer(7) != 0;
    slots.emplace(type.id, linkTypes.size() - 1);
  }
  Statement restrictions(db,
                         "SELECT link_type, position, restriction FROM link_type_restriction"
                         " ORDER BY link_type, position");
  while (restrictions.step()) {
    // The foreign key guarantees the link type exists.
    LinkType& type = linkTypes[slots.at(std::string(restrictions.text(0)))];
    expectOrdinal(restrictions.integer(1), type.restricted.size(), "restriction of link type " + type.id);
    type.restricted.emplace_back(restrictions.text(2));
  }
  return linkTypes;
}

void checkExists(const std::filesystem::path& dbPath) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(dbPath, ec))
    throw DbError("rule database " + dbPath.string() + " does not exist");
}

// The schema version must be the one this program reads.
void checkSchemaVersion(sqlite3* db, const std::filesystem::path& dbPath) {
  const int version = schemaVersion(db);
  if (version != kRulesSchemaVersion) {
    throw DbError("rule database " + dbPath.string() + " has schema version " + std::to_string(version) +
                  ", this program reads version " + std::to_string(kRulesSchemaVersion));
  }
}

}  // namespace

ReleaseInfo readRulesRelease(const std::filesystem::path& dbPath) {
  checkExists(dbPath);
  sqlite::Connection connection(dbPath, sqlite::Connection::Mode::ReadOnly);
  checkSchemaVersion(connection.handle(), dbPath);
  ReleaseInfo release = readRelease(connection.handle());
  connection.close();
  return release;
}

Dictionary readRules(const std::filesystem::path& dbPath) {
  checkExists(dbPath);
  sqlite::Connection connection(dbPath, sqlite::Connection::Mode::ReadOnly);
  sqlite3* db = connection.handle();
  checkSchemaVersion(db, dbPath);
  // One read transaction: a consistent view even if someone writes meanwhile.
  sqlite::execute(db, "BEGIN", "starting to read the rules");
  Dictionary dictionary;
  dictionary.release = readRelease(db);
  dictionary.ais = readAis(db);
  AiIndex index(dictionary.ais);
  readComponents(db, index);
  readRelations(db, index);
  readPrimaryKeys(db, index);
  dictionary.linkTypes = readLinkTypes(db);
  sqlite::execute(db, "COMMIT", "finishing reading the rules");
  connection.close();
  return dictionary;
}

}  // namespace codepayload
