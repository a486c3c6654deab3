// The registry's append-only audit log (table audit_log, migration 0003):
// who (actor) did what (action) to which object (target) of which
// organization, when, from which address, and how it ended. Written in the
// transaction of the change it records (appendAuditRecord on the change's
// session), or on its own for a refused or failed change. A record never
// holds a secret, password, token or hash: the fields are set by the code,
// from ids, names, roles, plans and scopes (docs/decisions.md D-D8).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace Poco::Data {
class Session;
}

namespace codepayload::accounts {

enum class AuditResult { Success, Refused, Failed };

// "success", "refused", "failed".
std::string_view auditResultName(AuditResult result);

inline constexpr std::string_view kLocalAddress = "local";

struct AuditRecord {
  std::int64_t id = 0;         // assigned when appended; ascending in insertion order
  std::int64_t at = 0;         // Unix seconds
  std::string actor;           // "cli:<unix user>", "user:<id>", "operator:<id>"
  std::string action;          // "user.create", "client.block", ...
  std::string target;          // the object's id, "" when none
  std::string organizationId;  // "" for none
  std::string address;         // the client's address, kLocalAddress for the CLI
  AuditResult result = AuditResult::Success;
  std::string detail;  // short, never a secret

  bool operator==(const AuditRecord&) const = default;
};

// Who and from where, for the records of one request or command.
struct AuditContext {
  std::string actor;
  std::string address;
};

// Appends `record` (its id is ignored) on `session`, inside whatever
// transaction the session is in. Throws what Poco throws.
void appendAuditRecord(Poco::Data::Session& session, const AuditRecord& record);

struct AuditQuery {
  std::optional<std::string> organizationId;  // nullopt: every organization's and none
  // The actions that begin with it ("client" finds client.create and
  // client.block; a whole action finds itself), or every one. Actions are
  // lower case; the prefix is compared in lower case on either database.
  std::optional<std::string> action;
  std::size_t limit = 100;
};

// Matching records, newest first. Throws what Poco throws.
std::vector<AuditRecord> readAuditRecords(Poco::Data::Session& session, const AuditQuery& query);

// A record with what the registry still knows of its target, so a reader
// sees people and clients by name rather than by id alone.
struct AuditEntry {
  AuditRecord record;
  std::optional<std::string> targetEmail;  // the user's or operator's email, while the account exists
  std::optional<std::string> targetName;   // the API client's name, while the registry has its row

  bool operator==(const AuditEntry&) const = default;
};

// readAuditRecords with the targets' emails and names, in the same one query.
std::vector<AuditEntry> readAuditEntries(Poco::Data::Session& session, const AuditQuery& query);

}  // namespace codepayload::accounts
