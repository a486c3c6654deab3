// What every /dashboard/data/ endpoint works with: the call being
// answered (Call: the exchange, who asks, the parsed body and query), the
// refusals that end it (Refusal, answered as an ErrorEnvelope by the
// handler), reading the JSON body, writing JSON, the answers, and what a
// user's role allows.
#pragma once

#include <Poco/JSON/Object.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "auth/client_registry.h"
#include "auth/form_urlencoded.h"
#include "auth/usage_service.h"
#include "engine/payload_engine.h"
#include "server/dashboard/dashboard_accounts.h"
#include "server/handlers/service_handler.h"

namespace codepayload::server::dashboard {

using accounts::Role;

// Who is asking: a signed-in user or operator.
struct Principal {
  bool isOperator = false;
  std::string id;
  std::string email;
  bool totpEnabled = false;
  std::optional<accounts::UserRecord> user;  // users only
};

// One /dashboard/data/ request being answered.
struct Call {
  HttpExchange& exchange;
  RequestTrace& trace;
  DashboardAccounts& accounts;
  auth::UsageService& usage;
  const PayloadEngine& engine;             // Try it: the engine the API calls
  std::vector<std::string_view> segments;  // the path after /dashboard/data/, split at '/'
  std::string sessionId;                   // the cookie's session, when it is active
  std::optional<accounts::ActiveSession> session;
  std::optional<Principal> who;
  Poco::JSON::Object::Ptr body;  // POST only; an empty body is an empty object
  std::vector<auth::FormField> query;

  // The query parameter `name`, when present.
  std::optional<std::string> parameter(std::string_view name) const {
    for (const auth::FormField& field : query) {
      if (field.name == name) return field.value;
    }
    return std::nullopt;
  }

  accounts::AuditContext audit() const {
    return accounts::AuditContext{who ? who->email : std::string("anonymous"), exchange.clientHost()};
  }
  const std::string& organizationId() const { return who->user->organizationId; }
};

// A refusal that ends the request with an ErrorEnvelope. Its message is made a sentence, as
// everything the pages show is: the stores and shared checks word a refusal as the clause the
// command-line tools print after their name ("the email address x already has an account"),
// which the dashboard shows as "The email address x already has an account.".
struct Refusal {
  Refusal(int httpStatus, std::string errorCode, std::optional<std::string> field, std::string text);

  int status;
  std::string code;
  std::optional<std::string> path;
  std::string message;
};

Refusal invalid(std::string_view field, std::string message);
Refusal notFound(std::string message);
Refusal forbidden(std::string message);

// --- JSON writing.

void member(std::string& out, std::string_view name);
void stringMember(std::string& out, std::string_view name, std::string_view value);
// The value, or null when there is none.
void optionalStringMember(std::string& out, std::string_view name, const std::optional<std::string>& value);
void boolMember(std::string& out, std::string_view name, bool value);

// The organization's members, without the closing brace (callers add more).
std::string organizationMembers(const auth::Organization& organization);

// --- JSON reading.

std::string stringField(const Call& call, std::string_view name, bool required = true);
bool boolField(const Call& call, std::string_view name);
std::vector<std::string> stringListField(const Call& call, std::string_view name);

// --- Answers.

void sendJson(Call& call, int status, std::string_view body);
void sendNoContent(Call& call);
// 303 See Other to `location` (a page of the dashboard).
void sendSeeOther(Call& call, std::string_view location);

// --- Who may do what.

std::string homeOf(const Principal& who);
std::optional<Principal> principalOf(DashboardAccounts& accounts, std::string_view principalId);

// Who an endpoint is for.
enum class Audience { Anyone, Signed, User, Operator };
// What a user's role must allow (operators: Audience decides).
enum class Permission { Read, Clients, Owner };

bool roleAllows(Role role, Permission permission);
std::string_view permissionSentence(Permission permission);

// --- Shared by the endpoints.

auth::Organization currentOrganization(Call& call);

// Why the organization's API clients cannot get tokens now
// (auth::apiClientCoverage, the token endpoint's rule): `code`
// ("subscriptionInactive", "planExcludesClients"), the banner its users see on
// every page, and the reason beside each client shown as suspended. nullopt
// while its clients are covered.
struct ClientSuspension {
  std::string code;
  std::string banner;
  std::string reason;
};
std::optional<ClientSuspension> clientSuspension(const auth::Organization& organization);

// As its users see it: with requireTotp and clientsSuspended (null, or the
// ClientSuspension's {"code","message"}: what the banner needs).
std::string userOrganizationJson(Call& call, const auth::Organization& organization);

// Records a refused change on its own (D-D8: no change to share a transaction with).
// `organizationId`: the organization it concerns when it is not the user's own (an operator's
// change); empty means the user's own, or none for an operator.
void auditRefusal(Call& call, std::string_view action, std::string_view target, std::string_view detail,
                  std::string_view organizationId = {});

// The signed-in account's password, asked again before a change that needs
// it: reads the body's "password" and returns when the one throttled
// PasswordCheck (DashboardAccounts::passwordCheck) finds it right. A wrong
// password is recorded as `action` refused ("wrong password") and answered
// 400 Validation.Invalid.password; a throttled one, which runs no Argon2, is
// answered 429 TooManyAttempts with Retry-After and recorded ("throttled")
// only when it is the first refusal of its lock or delay.
void requireCurrentPassword(Call& call, std::string_view action);

}  // namespace codepayload::server::dashboard
