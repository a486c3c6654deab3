#include "server/dashboard/dashboard_call.h"

#include <Poco/JSON/Array.h>
#include <openssl/crypto.h>

#include <stdexcept>

#include "auth/unix_clock.h"
#include "common/error_codes.h"
#include "common/json_escape.h"
#include "common/utc_time.h"

namespace codepayload::server::dashboard {

namespace {

// A clause ("the email address x already has an account": its first word a lower-case one) with
// a capital first letter and a full stop. Any other text is left as it is: a sentence already,
// or a refusal that starts with the path it is about ("primaryKey: required field is missing",
// as /codes words it).
std::string asSentence(std::string text) {
  std::size_t wordEnd = 0;
  while (wordEnd < text.size() && text[wordEnd] >= 'a' && text[wordEnd] <= 'z') ++wordEnd;
  if (wordEnd == 0 || (wordEnd < text.size() && text[wordEnd] != ' ')) return text;
  text.front() = static_cast<char>(text.front() - 'a' + 'A');
  const char last = text.back();
  if (last != '.' && last != '?' && last != '!') text.push_back('.');
  return text;
}

}  // namespace

Refusal::Refusal(int httpStatus, std::string errorCode, std::optional<std::string> field, std::string text)
    : status(httpStatus), code(std::move(errorCode)), path(std::move(field)), message(asSentence(std::move(text))) {}

Refusal invalid(std::string_view field, std::string message) {
  return Refusal{400, "Validation.Invalid." + std::string(field), std::string(field), std::move(message)};
}

Refusal notFound(std::string message) { return Refusal{404, error_code::kNotFound, std::nullopt, std::move(message)}; }

Refusal forbidden(std::string message) {
  return Refusal{403, error_code::kForbidden, std::nullopt, std::move(message)};
}

// --- JSON writing.

void member(std::string& out, std::string_view name) {
  if (out.back() != '{') out.push_back(',');
  common::appendJsonString(out, name);
  out.push_back(':');
}

void stringMember(std::string& out, std::string_view name, std::string_view value) {
  member(out, name);
  common::appendJsonString(out, value);
}

void optionalStringMember(std::string& out, std::string_view name, const std::optional<std::string>& value) {
  member(out, name);
  if (value) {
    common::appendJsonString(out, *value);
  } else {
    out += "null";
  }
}

void boolMember(std::string& out, std::string_view name, bool value) {
  member(out, name);
  out += value ? "true" : "false";
}

std::string organizationMembers(const auth::Organization& organization) {
  std::string out = "{";
  stringMember(out, "id", organization.id);
  stringMember(out, "name", organization.name);
  stringMember(out, "plan", auth::planName(organization.plan));
  stringMember(out, "subscription", auth::subscriptionName(organization.subscription));
  boolMember(out, "coversApiClients", auth::coversApiClients(organization.plan, organization.subscription));
  stringMember(out, "createdAt", common::utcSecondsText(organization.createdAt));
  return out;
}

// --- JSON reading.

std::string stringField(const Call& call, std::string_view name, bool required) {
  const std::string key(name);
  if (!call.body->has(key)) {
    if (!required) return {};
    throw invalid(name, "\"" + key + "\" is required.");
  }
  const Poco::Dynamic::Var value = call.body->get(key);
  if (!value.isString()) throw invalid(name, "\"" + key + "\" must be a string.");
  return value.extract<std::string>();
}

bool boolField(const Call& call, std::string_view name) {
  const std::string key(name);
  const Poco::Dynamic::Var value = call.body->has(key) ? call.body->get(key) : Poco::Dynamic::Var();
  if (!value.isBoolean()) throw invalid(name, "\"" + key + "\" must be true or false.");
  return value.extract<bool>();
}

std::vector<std::string> stringListField(const Call& call, std::string_view name) {
  const std::string key(name);
  const Poco::JSON::Array::Ptr list = call.body->has(key) ? call.body->getArray(key) : nullptr;
  if (!list) throw invalid(name, "\"" + key + "\" must be a list of strings.");
  std::vector<std::string> values;
  for (const Poco::Dynamic::Var& value : *list) {
    if (!value.isString()) throw invalid(name, "\"" + key + "\" must be a list of strings.");
    values.push_back(value.extract<std::string>());
  }
  return values;
}

// --- Answers.

void sendJson(Call& call, int status, std::string_view body) {
  sendBody(call.exchange, status, "application/json", body, call.trace);
}

void sendSeeOther(Call& call, std::string_view location) {
  call.exchange.addHeader("Location", location);
  sendBody(call.exchange, 303, "text/plain; charset=utf-8", "See " + std::string(location) + "\n", call.trace);
}

void sendNoContent(Call& call) {
  call.trace.status = 204;
  call.exchange.addHeader("X-Content-Type-Options", "nosniff");
  call.exchange.send(204, {}, {});
}

// --- Who may do what.

std::string homeOf(const Principal& who) { return who.isOperator ? "/dashboard/organizations" : "/dashboard/api"; }

std::optional<Principal> principalOf(DashboardAccounts& accounts, std::string_view principalId) {
  if (principalId.starts_with(accounts::kOperatorIdPrefix)) {
    const std::optional<accounts::OperatorRecord> found = accounts.accounts().findOperator(principalId);
    if (!found) return std::nullopt;
    return Principal{true, found->id, found->email, found->totpEnabled, std::nullopt};
  }
  const std::optional<accounts::UserRecord> found = accounts.accounts().findUser(principalId);
  if (!found) return std::nullopt;
  return Principal{false, found->id, found->email, found->totpEnabled, *found};
}

bool roleAllows(Role role, Permission permission) {
  switch (permission) {
    case Permission::Read: return true;
    case Permission::Clients: return role == Role::Owner || role == Role::Developer;
    case Permission::Owner: return role == Role::Owner;
  }
  return false;
}

std::string_view permissionSentence(Permission permission) {
  return permission == Permission::Owner ? "Only an owner of the organization may do this."
                                         : "Only an owner or a developer of the organization may do this.";
}

// --- Shared by the endpoints.

auth::Organization currentOrganization(Call& call) {
  std::optional<auth::Organization> organization = call.accounts.registry().findOrganization(call.organizationId());
  if (!organization) throw notFound("Your organization no longer exists.");
  return *organization;
}

std::optional<ClientSuspension> clientSuspension(const auth::Organization& organization) {
  switch (auth::apiClientCoverage(organization.plan, organization.subscription)) {
    case auth::ApiClientCoverage::Covered: return std::nullopt;
    case auth::ApiClientCoverage::SubscriptionInactive:
      return ClientSuspension{"subscriptionInactive",
                              "Your organization's subscription is inactive: API clients cannot get tokens until an "
                              "operator reactivates it.",
                              "The organization's subscription is inactive."};
    case auth::ApiClientCoverage::PlanExcludesClients: break;
  }
  const std::string plan(auth::planName(organization.plan));
  return ClientSuspension{"planExcludesClients",
                          "Your organization's plan (" + plan +
                              ") does not include API clients: they cannot get tokens until an operator moves it to "
                              "the Starter plan or higher.",
                          "The organization's plan (" + plan + ") does not include API clients."};
}

std::string userOrganizationJson(Call& call, const auth::Organization& organization) {
  std::string out = organizationMembers(organization);
  boolMember(out, "requireTotp", call.accounts.accounts().requiresTotp(organization.id));
  member(out, "clientsSuspended");
  if (const std::optional<ClientSuspension> suspension = clientSuspension(organization)) {
    out.push_back('{');
    stringMember(out, "code", suspension->code);
    stringMember(out, "message", suspension->banner);
    out.push_back('}');
  } else {
    out += "null";
  }
  out.push_back('}');
  return out;
}

void auditRefusal(Call& call, std::string_view action, std::string_view target, std::string_view detail,
                  std::string_view organizationId) {
  const accounts::AuditContext context = call.audit();
  const std::string concerned = !organizationId.empty()      ? std::string(organizationId)
                                : call.who && call.who->user ? call.organizationId()
                                                             : std::string();
  call.accounts.accounts().appendAudit(
      accounts::AuditRecord{0, auth::systemUnixSeconds(), context.actor, std::string(action), std::string(target),
                            concerned, context.address, accounts::AuditResult::Refused, std::string(detail)});
}

void requireCurrentPassword(Call& call, std::string_view action) {
  std::string password = stringField(call, "password");
  const accounts::PasswordCheckResult result = call.accounts.passwordCheck().confirmPassword(
      accounts::PasswordAttempt{call.who->email, password, call.exchange.clientHost()});
  OPENSSL_cleanse(password.data(), password.size());
  switch (result.outcome) {
    case accounts::PasswordCheckResult::Outcome::Right: return;
    case accounts::PasswordCheckResult::Outcome::Wrong:
      auditRefusal(call, action, call.who->id, "wrong password");
      throw invalid("password", "The password is not right.");
    case accounts::PasswordCheckResult::Outcome::Throttled:
      if (result.firstRefusal) auditRefusal(call, action, call.who->id, "throttled");
      call.exchange.addHeader("Retry-After", std::to_string(result.retryAfterSeconds));
      throw Refusal{429, error_code::kTooManyAttempts, std::nullopt,
                    "Too many wrong passwords; try again in " + std::to_string(result.retryAfterSeconds) + " seconds."};
  }
  throw std::logic_error("a password check without an outcome");
}

}  // namespace codepayload::server::dashboard
