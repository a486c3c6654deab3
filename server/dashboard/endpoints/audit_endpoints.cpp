// The audit log (/dashboard/data/audit): an organization's records for its users, any
// organization's for operators.
#include "common/utc_time.h"
#include "server/dashboard/endpoints/dashboard_endpoints.h"

namespace codepayload::server::dashboard {

namespace {

std::string auditRecordJson(const accounts::AuditRecord& record) {
  std::string out = "{";
  stringMember(out, "at", common::utcSecondsText(record.at));
  stringMember(out, "actor", record.actor);
  stringMember(out, "action", record.action);
  stringMember(out, "target", record.target);
  stringMember(out, "organization", record.organizationId);
  stringMember(out, "address", record.address);
  stringMember(out, "result", accounts::auditResultName(record.result));
  stringMember(out, "detail", record.detail);
  out.push_back('}');
  return out;
}

}  // namespace

void audit(Call& call) {
  accounts::AuditQuery query;
  if (const std::optional<std::string> action = call.parameter("action"); action && !action->empty()) {
    query.action = *action;
  }
  if (const std::optional<std::string> limit = call.parameter("limit")) {
    const bool digits =
        !limit->empty() && limit->size() <= 4 && limit->find_first_not_of("0123456789") == std::string::npos;
    const int value = digits ? std::stoi(*limit) : 0;
    if (value < 1 || value > 1000) throw invalid("limit", "The limit must be a whole number from 1 to 1000.");
    query.limit = static_cast<std::size_t>(value);
  }
  if (call.who->isOperator) {
    if (const std::optional<std::string> organizationId = call.parameter("organization");
        organizationId && !organizationId->empty()) {
      query.organizationId = *organizationId;
    }
  } else {
    query.organizationId = call.organizationId();
  }
  std::string out = "{\"records\":[";
  bool first = true;
  for (const accounts::AuditRecord& record : call.accounts.accounts().readAudit(query)) {
    if (!first) out.push_back(',');
    first = false;
    out += auditRecordJson(record);
  }
  out += "]}";
  sendJson(call, 200, out);
}

}  // namespace codepayload::server::dashboard
