// The audit log (/dashboard/data/audit, and audit.csv to download): an organization's records for
// its users, any organization's for operators.
#include <string>
#include <vector>

#include "common/csv_text.h"
#include "common/utc_time.h"
#include "server/dashboard/endpoints/dashboard_endpoints.h"

namespace codepayload::server::dashboard {

namespace {

// What the download holds at most, newest first: enough for an audit, small
// enough to build in memory on a request.
constexpr std::size_t kCsvRecordLimit = 10000;

// The filters of the page and of the download alike; users always read their
// own organization, whatever they ask.
accounts::AuditQuery filtersOf(const Call& call) {
  accounts::AuditQuery query;
  if (const std::optional<std::string> action = call.parameter("action"); action && !action->empty()) {
    query.action = *action;
  }
  if (call.who->isOperator) {
    if (const std::optional<std::string> organizationId = call.parameter("organization");
        organizationId && !organizationId->empty()) {
      query.organizationId = *organizationId;
    }
  } else {
    query.organizationId = call.organizationId();
  }
  return query;
}

std::string auditEntryJson(const accounts::AuditEntry& entry) {
  const accounts::AuditRecord& record = entry.record;
  std::string out = "{";
  stringMember(out, "at", common::utcSecondsText(record.at));
  stringMember(out, "actor", record.actor);
  stringMember(out, "action", record.action);
  stringMember(out, "target", record.target);
  optionalStringMember(out, "targetEmail", entry.targetEmail);
  optionalStringMember(out, "targetName", entry.targetName);
  stringMember(out, "organization", record.organizationId);
  stringMember(out, "address", record.address);
  stringMember(out, "result", accounts::auditResultName(record.result));
  stringMember(out, "detail", record.detail);
  out.push_back('}');
  return out;
}

// One CSV record (common/csv_text.h). A value a spreadsheet would read as a
// formula (starting with =, +, -, @, a tab or a carriage return) gets a
// leading apostrophe, so opening the file never runs what someone typed into
// a name or an email (OWASP, CSV injection).
void appendCsvRow(std::string& out, std::initializer_list<std::string_view> values) {
  std::vector<std::string> guarded;
  guarded.reserve(values.size());
  for (const std::string_view value : values) {
    const bool formula = !value.empty() && std::string_view("=+-@\t\r").find(value.front()) != std::string_view::npos;
    guarded.push_back(formula ? "'" + std::string(value) : std::string(value));
  }
  const std::vector<std::string_view> fields(guarded.begin(), guarded.end());
  common::appendCsvRecord(out, fields);
}

}  // namespace

void audit(Call& call) {
  accounts::AuditQuery query = filtersOf(call);
  if (const std::optional<std::string> limit = call.parameter("limit")) {
    const bool digits =
        !limit->empty() && limit->size() <= 4 && limit->find_first_not_of("0123456789") == std::string::npos;
    const int value = digits ? std::stoi(*limit) : 0;
    if (value < 1 || value > 1000) throw invalid("limit", "The limit must be a whole number from 1 to 1000.");
    query.limit = static_cast<std::size_t>(value);
  }
  std::string out = "{\"records\":[";
  bool first = true;
  for (const accounts::AuditEntry& entry : call.accounts.accounts().readAuditEntries(query)) {
    if (!first) out.push_back(',');
    first = false;
    out += auditEntryJson(entry);
  }
  out += "]}";
  sendJson(call, 200, out);
}

void auditCsv(Call& call) {
  accounts::AuditQuery query = filtersOf(call);
  query.limit = kCsvRecordLimit;
  std::string out;
  appendCsvRow(out,
               {"time", "actor", "action", "target", "target_name", "organization", "address", "result", "detail"});
  for (const accounts::AuditEntry& entry : call.accounts.accounts().readAuditEntries(query)) {
    const accounts::AuditRecord& record = entry.record;
    appendCsvRow(out, {common::utcSecondsText(record.at), record.actor, record.action, record.target,
                       entry.targetEmail.value_or(entry.targetName.value_or("")), record.organizationId, record.address,
                       accounts::auditResultName(record.result), record.detail});
  }
  call.exchange.addHeader("Content-Disposition", R"(attachment; filename="audit-log.csv")");
  sendOwnedBody(call.exchange, 200, "text/csv; charset=utf-8", std::move(out), call.trace);
}

}  // namespace codepayload::server::dashboard
