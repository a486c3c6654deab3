#include "accounts/audit_log.h"

#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/Nullable.h>

#include <stdexcept>

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
  std::string sql =
      "SELECT id, at, actor, action, target, organization_id, address, result, detail FROM audit_log WHERE 1 = 1";
  Poco::Data::Statement statement(session);
  std::string organization = query.organizationId.value_or("");
  std::string action = query.action.value_or("");
  Poco::Int64 limit = static_cast<Poco::Int64>(query.limit);
  int parameters = 0;
  const auto parameter = [&parameters] { return "$" + std::to_string(++parameters); };
  if (query.organizationId) sql += " AND organization_id = " + parameter();
  if (query.action) sql += " AND action = " + parameter();
  sql += " ORDER BY id DESC LIMIT " + parameter();
  std::vector<Poco::Int64> ids, ats;
  std::vector<std::string> actors, actions, targets, addresses, results, details;
  std::vector<Poco::Nullable<std::string>> organizations;
  statement << sql;
  if (query.organizationId) statement, use(organization);
  if (query.action) statement, use(action);
  statement, use(limit), into(ids), into(ats), into(actors), into(actions), into(targets), into(organizations),
      into(addresses), into(results), into(details);
  statement.execute();
  std::vector<AuditRecord> records;
  records.reserve(ids.size());
  for (std::size_t row = 0; row < ids.size(); ++row) {
    records.push_back(AuditRecord{ids[row], ats[row], actors[row], actions[row], targets[row],
                                  organizations[row].isNull() ? "" : organizations[row].value(), addresses[row],
                                  resultFromColumn(results[row]), details[row]});
  }
  return records;
}

}  // namespace codepayload::accounts
