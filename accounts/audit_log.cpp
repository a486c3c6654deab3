#include "accounts/audit_log.h"

#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/Nullable.h>

#include <stdexcept>

#include "common/ascii.h"

namespace codepayload::accounts {

namespace {

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;
using Poco::Data::Keywords::use;

AuditResult resultFromColumn(const std::string& text) {
  for (const AuditResult result : {AuditResult::Success, AuditResult::Refused, AuditResult::Failed}) {
    if (auditResultName(result) == text) return result;
  }
  throw std::runtime_error("audit_log holds an unknown result \"" + text + "\"");
}

// A LIKE pattern for the values that begin with `prefix`, in lower case
// (SQLite's LIKE ignores ASCII case, PostgreSQL's does not; the actions are
// lower case), with LIKE's own characters escaped by a backslash.
std::string likePrefixPattern(std::string_view prefix) {
  std::string pattern;
  pattern.reserve(prefix.size() + 1);
  for (const char c : prefix) {
    if (c == '%' || c == '_' || c == '\\') pattern.push_back('\\');
    pattern.push_back(common::toAsciiLower(c));
  }
  pattern.push_back('%');
  return pattern;
}

std::optional<std::string> optionalOf(const Poco::Nullable<std::string>& column) {
  if (column.isNull()) return std::nullopt;
  return column.value();
}

}  // namespace

std::string_view auditResultName(AuditResult result) {
  switch (result) {
    case AuditResult::Success: return "success";
    case AuditResult::Refused: return "refused";
    case AuditResult::Failed: return "failed";
  }
  return "failed";
}

void appendAuditRecord(Poco::Data::Session& session, const AuditRecord& record) {
  Poco::Nullable<std::string> organization;
  if (!record.organizationId.empty()) organization = record.organizationId;
  session << "INSERT INTO audit_log (at, actor, action, target, organization_id, address, result, detail)"
             " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
      bind(Poco::Int64{record.at}), bind(record.actor), bind(record.action), bind(record.target), bind(organization),
      bind(record.address), bind(std::string(auditResultName(record.result))), bind(record.detail), now;
}

std::vector<AuditRecord> readAuditRecords(Poco::Data::Session& session, const AuditQuery& query) {
  std::vector<AuditRecord> records;
  for (AuditEntry& entry : readAuditEntries(session, query)) records.push_back(std::move(entry.record));
  return records;
}

std::vector<AuditEntry> readAuditEntries(Poco::Data::Session& session, const AuditQuery& query) {
  // The targets' names come from the registry's own tables by their primary
  // keys: one query for the page, not one per record.
  std::string sql =
      "SELECT a.id, a.at, a.actor, a.action, a.target, a.organization_id, a.address, a.result, a.detail,"
      " COALESCE(u.email, o.email), c.name"
      " FROM audit_log a LEFT JOIN users u ON u.id = a.target LEFT JOIN operators o ON o.id = a.target"
      " LEFT JOIN api_clients c ON c.id = a.target WHERE 1 = 1";
  Poco::Data::Statement statement(session);
  std::string organization = query.organizationId.value_or("");
  std::string actionPattern = query.action ? likePrefixPattern(*query.action) : "";
  Poco::Int64 limit = static_cast<Poco::Int64>(query.limit);
  int parameters = 0;
  const auto parameter = [&parameters] { return "$" + std::to_string(++parameters); };
  if (query.organizationId) sql += " AND a.organization_id = " + parameter();
  if (query.action) sql += " AND a.action LIKE " + parameter() + " ESCAPE '\\'";
  sql += " ORDER BY a.id DESC LIMIT " + parameter();
  std::vector<Poco::Int64> ids, ats;
  std::vector<std::string> actors, actions, targets, addresses, results, details;
  std::vector<Poco::Nullable<std::string>> organizations, emails, names;
  statement << sql;
  if (query.organizationId) statement, use(organization);
  if (query.action) statement, use(actionPattern);
  statement, use(limit), into(ids), into(ats), into(actors), into(actions), into(targets), into(organizations),
      into(addresses), into(results), into(details), into(emails), into(names);
  statement.execute();
  std::vector<AuditEntry> entries;
  entries.reserve(ids.size());
  for (std::size_t row = 0; row < ids.size(); ++row) {
    entries.push_back(AuditEntry{AuditRecord{ids[row], ats[row], actors[row], actions[row], targets[row],
                                             organizations[row].isNull() ? "" : organizations[row].value(),
                                             addresses[row], resultFromColumn(results[row]), details[row]},
                                 optionalOf(emails[row]), optionalOf(names[row])});
  }
  return entries;
}

}  // namespace codepayload::accounts
