#include "server/dashboard/dashboard_handler.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <openssl/crypto.h>

#include <array>
#include <ctime>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/base32.h"
#include "accounts/email_address.h"
#include "accounts/password_policy.h"
#include "accounts/recovery_codes.h"
#include "accounts/totp.h"
#include "auth/client_registry.h"
#include "auth/form_urlencoded.h"
#include "auth/known_scopes.h"
#include "auth/unix_clock.h"
#include "auth/usage_service.h"
#include "common/ascii.h"
#include "common/json_escape.h"
#include "server/dashboard/dashboard_files.h"
#include "server/dashboard/dashboard_security.h"
#include "server/media_type.h"

namespace codepayload::server {

namespace {

using accounts::Role;

constexpr std::size_t kMaxBodyBytes = 64 * 1024;
constexpr std::string_view kDataPrefix = "/dashboard/data/";
constexpr std::string_view kSignInPage = "/dashboard/sign-in";

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
  const std::string& organisationId() const { return who->user->organisationId; }
};

// A refusal that ends the request with an ErrorEnvelope.
struct Refusal {
  int status;
  std::string code;
  std::optional<std::string> path;
  std::string message;
};

Refusal invalid(std::string_view field, std::string message) {
  return Refusal{400, "Validation.Invalid." + std::string(field), std::string(field), std::move(message)};
}

Refusal notFound(std::string message) { return Refusal{404, "NotFound", std::nullopt, std::move(message)}; }

Refusal forbidden(std::string message) { return Refusal{403, "Forbidden", std::nullopt, std::move(message)}; }

std::string isoTime(std::int64_t unixSeconds) {
  const std::time_t time = static_cast<std::time_t>(unixSeconds);
  std::tm utc{};
  ::gmtime_r(&time, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
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

void boolMember(std::string& out, std::string_view name, bool value) {
  member(out, name);
  out += value ? "true" : "false";
}

// The organisation's members, without the closing brace (callers add more).
std::string organisationMembers(const auth::Organisation& organisation) {
  std::string out = "{";
  stringMember(out, "id", organisation.id);
  stringMember(out, "name", organisation.name);
  stringMember(out, "plan", auth::planName(organisation.plan));
  stringMember(out, "subscription", auth::subscriptionName(organisation.subscription));
  boolMember(out, "coversApiClients", auth::coversApiClients(organisation.plan, organisation.subscription));
  stringMember(out, "createdAt", isoTime(organisation.createdAt));
  return out;
}

// As operators see it.
std::string organisationJson(const auth::Organisation& organisation) { return organisationMembers(organisation) + "}"; }

std::string userJson(const accounts::UserRecord& user) {
  std::string out = "{";
  stringMember(out, "id", user.id);
  stringMember(out, "email", user.email);
  stringMember(out, "role", accounts::roleName(user.role));
  boolMember(out, "totpEnabled", user.totpEnabled);
  stringMember(out, "createdAt", isoTime(user.createdAt));
  out.push_back('}');
  return out;
}

std::string auditRecordJson(const accounts::AuditRecord& record) {
  std::string out = "{";
  stringMember(out, "at", isoTime(record.at));
  stringMember(out, "actor", record.actor);
  stringMember(out, "action", record.action);
  stringMember(out, "target", record.target);
  stringMember(out, "organization", record.organisationId);
  stringMember(out, "address", record.address);
  stringMember(out, "result", accounts::auditResultName(record.result));
  stringMember(out, "detail", record.detail);
  out.push_back('}');
  return out;
}

// `lastUsedAt`: the registry's, or a later use not yet written (UsageService::lastUsedAt).
std::string clientJson(const auth::ClientRecord& client, std::optional<std::int64_t> lastUsedAt) {
  std::string out = "{";
  stringMember(out, "id", client.id);
  stringMember(out, "name", client.name);
  member(out, "scopes");
  out.push_back('[');
  for (std::size_t i = 0; i < client.scopes.size(); ++i) {
    if (i > 0) out.push_back(',');
    common::appendJsonString(out, client.scopes[i]);
  }
  out.push_back(']');
  stringMember(out, "state", auth::clientStateName(client.state));
  stringMember(out, "createdAt", isoTime(client.createdAt));
  stringMember(out, "createdBy", client.createdBy);
  member(out, "lastUsedAt");
  if (lastUsedAt) {
    common::appendJsonString(out, isoTime(*lastUsedAt));
  } else {
    out += "null";
  }
  out.push_back('}');
  return out;
}

std::string createdClientJson(const auth::CreatedClient& created) {
  std::string out = "{";
  member(out, "client");
  out += clientJson(created.client, std::nullopt);
  stringMember(out, "secret", created.secret);
  out.push_back('}');
  return out;
}

// --- JSON reading.

std::string stringField(const Call& call, std::string_view name, bool required = true) {
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

void sendNoContent(Call& call) {
  call.trace.status = 204;
  call.exchange.addHeader("X-Content-Type-Options", "nosniff");
  call.exchange.send(204, {}, {});
}

void sendRedirect(HttpExchange& exchange, std::string_view location, RequestTrace& trace) {
  exchange.addHeader("Location", location);
  sendBody(exchange, 303, "text/plain; charset=utf-8", "See " + std::string(location) + "\n", trace);
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

// Resumes the session the request's cookie names; fills call.session/who.
void resumeSession(Call& call) {
  std::array<std::string_view, 8> cookies{};
  const std::size_t count = call.exchange.fieldValues("Cookie", cookies);
  const std::string_view id = sessionIdFromCookies(std::span(cookies.data(), count));
  if (id.empty()) return;
  std::optional<accounts::ActiveSession> session = call.accounts.sessions().resume(id);
  if (!session) return;
  std::optional<Principal> who = principalOf(call.accounts, session->principalId);
  if (!who) return;
  call.sessionId = std::string(id);
  call.session = std::move(session);
  call.who = std::move(who);
}

// Who an endpoint is for.
enum class Audience { Anyone, Signed, User, Operator };
// What a user's role must allow (operators: Audience decides).
enum class Permission { Read, Clients, Owner };

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

// --- Endpoints.

auth::Organisation currentOrganisation(Call& call) {
  std::optional<auth::Organisation> organisation = call.accounts.registry().findOrganisation(call.organisationId());
  if (!organisation) throw notFound("Your organization no longer exists.");
  return *organisation;
}

// As its users see it: with requireTotp.
std::string userOrganisationJson(Call& call, const auth::Organisation& organisation) {
  std::string out = organisationMembers(organisation);
  boolMember(out, "requireTotp", call.accounts.accounts().requiresTotp(organisation.id));
  out.push_back('}');
  return out;
}

std::string planGateSentence(const auth::Organisation& organisation) {
  if (organisation.subscription != auth::Subscription::Active) {
    return "The organization's subscription is inactive; API clients need an active subscription on the Starter plan "
           "or higher.";
  }
  return "The organization's plan (" + std::string(auth::planName(organisation.plan)) +
         ") does not include API clients; they need the Starter plan or higher.";
}

void signIn(Call& call) {
  const std::string email = stringField(call, "email");
  std::string password = stringField(call, "password");
  std::string code = stringField(call, "code", false);
  std::array<std::string_view, 8> cookies{};
  const std::size_t count = call.exchange.fieldValues("Cookie", cookies);
  const std::string_view previous = sessionIdFromCookies(std::span(cookies.data(), count));
  const accounts::SignInResult result = call.accounts.signIn().signIn(
      accounts::SignInAttempt{email, password, code, call.exchange.clientHost(), previous});
  OPENSSL_cleanse(password.data(), password.size());
  OPENSSL_cleanse(code.data(), code.size());

  // The record names the account when there is one, never the text typed (a
  // password typed into the email field must not reach the log).
  const std::optional<Principal> who =
      result.principalId.empty() ? std::nullopt : principalOf(call.accounts, result.principalId);
  accounts::AuditRecord record;
  record.at = auth::systemUnixSeconds();
  record.actor = who ? who->email : "anonymous";
  record.action = "account.sign-in";
  record.target = who ? who->id : "";
  record.organisationId = who && who->user ? who->user->organisationId : "";
  record.address = call.exchange.clientHost();
  record.result = result.outcome == accounts::SignInResult::Outcome::SignedIn ? accounts::AuditResult::Success
                                                                              : accounts::AuditResult::Refused;
  switch (result.outcome) {
    case accounts::SignInResult::Outcome::SignedIn:
      record.detail = result.usedRecoveryCode ? "recovery code used" : "";
      break;
    case accounts::SignInResult::Outcome::Refused:
      record.detail = who ? "wrong password or code" : "unknown email";
      break;
    case accounts::SignInResult::Outcome::SecondFactorNeeded: record.detail = "second factor asked"; break;
    case accounts::SignInResult::Outcome::Throttled: record.detail = "throttled"; break;
  }
  call.accounts.accounts().appendAudit(record);

  switch (result.outcome) {
    case accounts::SignInResult::Outcome::SignedIn: {
      if (!who) throw std::logic_error("signed in to an account that cannot be read");
      call.exchange.addHeader("Set-Cookie", sessionCookie(result.session->id));
      std::string out = "{";
      stringMember(out, "home", homeOf(*who));
      out.push_back('}');
      sendJson(call, 200, out);
      return;
    }
    case accounts::SignInResult::Outcome::Refused:
      throw Refusal{401, "SignInRefused", std::nullopt, "The email, password or authentication code is not right."};
    case accounts::SignInResult::Outcome::SecondFactorNeeded:
      throw Refusal{401, "SecondFactorNeeded", std::nullopt,
                    "Enter the authentication code from your app, or one of your recovery codes."};
    case accounts::SignInResult::Outcome::Throttled:
      call.exchange.addHeader("Retry-After", std::to_string(result.retryAfterSeconds));
      throw Refusal{429, "TooManyAttempts", std::nullopt,
                    "Too many failed sign-ins; try again in " + std::to_string(result.retryAfterSeconds) + " seconds."};
  }
}

void signOut(Call& call) {
  call.accounts.sessions().end(call.sessionId);
  call.accounts.forgetPendingTotp(accounts::sessionIdDigest(call.sessionId));
  call.exchange.addHeader("Set-Cookie", expiredSessionCookie());
  sendNoContent(call);
}

void signOutEverywhere(Call& call) {
  call.accounts.sessions().endAllOf(call.who->id);
  call.accounts.forgetPendingTotp(accounts::sessionIdDigest(call.sessionId));
  call.exchange.addHeader("Set-Cookie", expiredSessionCookie());
  sendNoContent(call);
}

void session(Call& call) {
  const Principal& who = *call.who;
  std::string out = "{";
  stringMember(out, "kind", who.isOperator ? "operator" : "user");
  stringMember(out, "id", who.id);
  stringMember(out, "email", who.email);
  if (who.user) stringMember(out, "role", accounts::roleName(who.user->role));
  boolMember(out, "totpEnabled", who.totpEnabled);
  stringMember(out, "csrfToken", call.session->csrfToken);
  if (who.user) {
    member(out, "organization");
    out += userOrganisationJson(call, currentOrganisation(call));
  }
  out.push_back('}');
  sendJson(call, 200, out);
}

// The organisation's client `segments[1]`, not deleted.
auth::ClientRecord ownClient(Call& call) {
  const std::string_view id = call.segments.at(1);
  std::optional<auth::ClientRecord> client =
      auth::isWellFormedClientId(id) ? call.accounts.registry().findClient(id) : std::nullopt;
  if (!client || client->organisationId != call.organisationId() || client->state == auth::ClientState::Deleted) {
    throw notFound("Your organization has no API client with this id.");
  }
  return *client;
}

void listClients(Call& call) {
  const auth::Organisation organisation = currentOrganisation(call);
  const bool covers = auth::coversApiClients(organisation.plan, organisation.subscription);
  const bool mayCreate = roleAllows(call.who->user->role, Permission::Clients);
  std::string out = "{";
  member(out, "knownScopes");
  out.push_back('[');
  for (std::size_t i = 0; i < auth::kKnownScopes.size(); ++i) {
    if (i > 0) out.push_back(',');
    common::appendJsonString(out, auth::kKnownScopes[i].name);
  }
  out.push_back(']');
  boolMember(out, "canCreate", covers && mayCreate);
  member(out, "cannotCreateReason");
  if (!covers) {
    common::appendJsonString(out, planGateSentence(organisation));
  } else if (!mayCreate) {
    common::appendJsonString(out, permissionSentence(Permission::Clients));
  } else {
    out += "null";
  }
  member(out, "clients");
  out.push_back('[');
  bool first = true;
  for (const auth::ClientRecord& client : call.accounts.registry().listClients(organisation.id)) {
    if (client.state == auth::ClientState::Deleted) continue;
    if (!first) out.push_back(',');
    first = false;
    out += clientJson(client, call.usage.lastUsedAt(client));
  }
  out += "]}";
  sendJson(call, 200, out);
}

// Records a refused change on its own (D-D8: no change to share a transaction with).
void auditRefusal(Call& call, std::string_view action, std::string_view target, std::string_view detail) {
  const accounts::AuditContext context = call.audit();
  call.accounts.accounts().appendAudit(
      accounts::AuditRecord{0, auth::systemUnixSeconds(), context.actor, std::string(action), std::string(target),
                            call.who && call.who->user ? call.organisationId() : std::string(), context.address,
                            accounts::AuditResult::Refused, std::string(detail)});
}

// Creates a client, answering 201 {"client","secret"}; the plan gate refuses
// with 409 PlanExcludesClients.
void createClientAnswer(Call& call, std::string_view name, const std::vector<std::string>& scopes) {
  const auth::Organisation organisation = currentOrganisation(call);
  if (!auth::coversApiClients(organisation.plan, organisation.subscription)) {
    const std::string why = planGateSentence(organisation);
    auditRefusal(call, "client.create", "", why);
    throw Refusal{409, "PlanExcludesClients", std::nullopt, why};
  }
  const accounts::AuditContext context = call.audit();
  const DashboardAccounts::ChangeAudit audit(context);
  try {
    const auth::CreatedClient created =
        call.accounts.registry().createClient(organisation.id, name, scopes, call.who->email);
    sendJson(call, 201, createdClientJson(created));
  } catch (const auth::RegistryError& error) {
    if (error.kind() == auth::RegistryError::Kind::InvalidValue) {
      auditRefusal(call, "client.create", "", error.what());
      const std::string_view field =
          std::string_view(error.what()).find("scope") != std::string_view::npos ? "scopes" : "name";
      throw invalid(field, error.what());
    }
    if (error.kind() == auth::RegistryError::Kind::PlanExcludesClients) {
      auditRefusal(call, "client.create", "", error.what());
      throw Refusal{409, "PlanExcludesClients", std::nullopt, planGateSentence(currentOrganisation(call))};
    }
    throw;
  }
}

void createClient(Call& call) {
  const std::string name = stringField(call, "name");
  const std::vector<std::string> scopes = stringListField(call, "scopes");
  const std::string problem = auth::newClientScopesProblem(scopes);
  if (!problem.empty()) throw invalid("scopes", problem);
  createClientAnswer(call, name, scopes);
}

void replaceClient(Call& call) {
  const auth::ClientRecord client = ownClient(call);
  createClientAnswer(call, client.name, client.scopes);
}

void setClientState(Call& call, auth::ClientState state) {
  const auth::ClientRecord client = ownClient(call);
  {
    const accounts::AuditContext context = call.audit();
    const DashboardAccounts::ChangeAudit audit(context);
    call.accounts.registry().setClientState(client.id, state);
  }
  if (state == auth::ClientState::Deleted) {
    sendNoContent(call);
    return;
  }
  const std::optional<auth::ClientRecord> changed = call.accounts.registry().findClient(client.id);
  sendJson(call, 200, clientJson(*changed, call.usage.lastUsedAt(*changed)));
}

void deleteClient(Call& call) {
  const auth::ClientRecord client = ownClient(call);
  if (stringField(call, "name") != client.name) {
    throw invalid("name", "Type the client's name exactly to confirm that it should be deleted.");
  }
  setClientState(call, auth::ClientState::Deleted);
}

// --- The organisation and its users.

void organisation(Call& call, int status = 200) {
  const auth::Organisation organisation = currentOrganisation(call);
  std::string out = userOrganisationJson(call, organisation);
  out.pop_back();
  member(out, "users");
  out.push_back('[');
  bool first = true;
  for (const accounts::UserRecord& user : call.accounts.accounts().listUsers(organisation.id)) {
    if (!first) out.push_back(',');
    first = false;
    out += userJson(user);
  }
  out += "]}";
  sendJson(call, status, out);
}

// Throws the refusal an AccountError means, recording it as refused.
[[noreturn]] void refuseAccountChange(Call& call, std::string_view action, std::string_view target,
                                      const accounts::AccountError& error, std::string_view field) {
  auditRefusal(call, action, target, error.what());
  switch (error.kind()) {
    case accounts::AccountError::Kind::EmailTaken: throw Refusal{409, "Conflict", std::string(field), error.what()};
    case accounts::AccountError::Kind::InvalidValue: throw Refusal{409, "Conflict", std::nullopt, error.what()};
    case accounts::AccountError::Kind::UnknownAccount:
    case accounts::AccountError::Kind::UnknownOrganisation: throw notFound(error.what());
    case accounts::AccountError::Kind::Storage: break;
  }
  throw error;
}

void createUser(Call& call) {
  const std::string email = stringField(call, "email");
  const std::string roleText = stringField(call, "role");
  std::string password = stringField(call, "password");
  if (const std::optional<std::string> problem = accounts::emailProblem(email)) throw invalid("email", *problem);
  const std::optional<Role> role = accounts::parseRole(roleText);
  if (!role) throw invalid("role", "The role must be owner, developer or viewer.");
  if (const std::optional<accounts::PasswordProblem> problem = accounts::passwordProblem(password)) {
    OPENSSL_cleanse(password.data(), password.size());
    throw invalid("password", problem->message);
  }
  const std::string hash = call.accounts.passwords().hash(password);
  OPENSSL_cleanse(password.data(), password.size());
  try {
    const accounts::UserRecord user =
        call.accounts.accounts().createUser(call.organisationId(), email, *role, hash, call.audit());
    sendJson(call, 201, userJson(user));
  } catch (const accounts::AccountError& error) {
    refuseAccountChange(call, "user.create", "", error, "email");
  }
}

void deleteUser(Call& call) {
  const std::string_view id = call.segments.at(2);
  const std::optional<accounts::UserRecord> user = call.accounts.accounts().findUser(id);
  if (!user || user->organisationId != call.organisationId())
    throw notFound("Your organization has no user with this id.");
  if (user->id == call.who->id) {
    auditRefusal(call, "user.delete", user->id, "a user cannot remove themselves");
    throw Refusal{409, "Conflict", std::nullopt, "You cannot remove yourself; ask another owner."};
  }
  try {
    call.accounts.accounts().deleteUser(user->id, call.audit());
  } catch (const accounts::AccountError& error) {
    refuseAccountChange(call, "user.delete", user->id, error, "");
  }
  sendNoContent(call);
}

void requireTotp(Call& call) {
  const bool required = boolField(call, "required");
  call.accounts.accounts().setRequireTotp(call.organisationId(), required, call.audit());
  organisation(call);
}

// --- The audit log.

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
    if (const std::optional<std::string> organisationId = call.parameter("organization");
        organisationId && !organisationId->empty()) {
      query.organisationId = *organisationId;
    }
  } else {
    query.organisationId = call.organisationId();
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

// --- The operator's organisations.

void listOrganisations(Call& call) {
  std::string out = "{\"organizations\":[";
  bool first = true;
  for (const auth::Organisation& organisation : call.accounts.registry().listOrganisations()) {
    if (!first) out.push_back(',');
    first = false;
    out += organisationJson(organisation);
  }
  out += "]}";
  sendJson(call, 200, out);
}

auth::Plan planField(const Call& call) {
  const std::optional<auth::Plan> plan = auth::parsePlan(stringField(call, "plan"));
  if (!plan) throw invalid("plan", "The plan must be free, starter, pro or enterprise.");
  return *plan;
}

// Runs a registry change of an organisation for an operator, audited; an
// unknown id is 404, a bad value 400 on `field`.
template <typename Change>
auth::Organisation changeOrganisation(Call& call, std::string_view action, std::string_view field, Change change) {
  const accounts::AuditContext context = call.audit();
  try {
    const DashboardAccounts::ChangeAudit audit(context);
    return change();
  } catch (const auth::RegistryError& error) {
    if (error.kind() == auth::RegistryError::Kind::UnknownOrganisation) {
      auditRefusal(call, action, "", error.what());
      throw notFound("There is no organization with this id.");
    }
    if (error.kind() == auth::RegistryError::Kind::InvalidValue) {
      auditRefusal(call, action, "", error.what());
      throw invalid(field, error.what());
    }
    throw;
  }
}

void createOrganisation(Call& call) {
  const std::string name = stringField(call, "name");
  const auth::Plan plan = planField(call);
  const auth::Organisation created = changeOrganisation(
      call, "org.create", "name", [&] { return call.accounts.registry().createOrganisation(name, plan); });
  sendJson(call, 201, organisationJson(created));
}

void setOrganisationPlan(Call& call) {
  const std::string id(call.segments.at(1));
  const auth::Plan plan = planField(call);
  const auth::Organisation changed = changeOrganisation(call, "org.set-plan", "plan", [&] {
    call.accounts.registry().setPlan(id, plan);
    return *call.accounts.registry().findOrganisation(id);
  });
  sendJson(call, 200, organisationJson(changed));
}

void setOrganisationSubscription(Call& call) {
  const std::string id(call.segments.at(1));
  const std::optional<auth::Subscription> subscription = auth::parseSubscription(stringField(call, "subscription"));
  if (!subscription) throw invalid("subscription", "The subscription must be active or inactive.");
  const auth::Organisation changed = changeOrganisation(call, "org.set-subscription", "subscription", [&] {
    call.accounts.registry().setSubscription(id, *subscription);
    return *call.accounts.registry().findOrganisation(id);
  });
  sendJson(call, 200, organisationJson(changed));
}

// --- The account's second factor.

constexpr std::string_view kTotpIssuer = "Code-Payload Service";

void startTotp(Call& call) {
  if (call.who->totpEnabled) {
    throw Refusal{409, "Conflict", std::nullopt, "TOTP is already on for your account; turn it off first."};
  }
  std::string secret = accounts::newTotpSecret();
  std::string out = "{";
  stringMember(out, "secret", accounts::encodeBase32(secret));
  stringMember(out, "otpauthUri", accounts::otpauthUri(kTotpIssuer, call.who->email, secret));
  out.push_back('}');
  call.accounts.keepPendingTotp(accounts::sessionIdDigest(call.sessionId), std::move(secret));
  sendJson(call, 200, out);
}

void confirmTotp(Call& call) {
  const std::string code = stringField(call, "code");
  const std::string digest = accounts::sessionIdDigest(call.sessionId);
  std::optional<std::string> secret = call.accounts.pendingTotp(digest);
  if (!secret) throw Refusal{409, "Conflict", std::nullopt, "Start the TOTP enrolment first."};
  const bool accepted = accounts::acceptTotp(*secret, code, auth::systemUnixSeconds(), std::nullopt).has_value();
  if (!accepted) {
    OPENSSL_cleanse(secret->data(), secret->size());
    throw invalid("code", "This code is not the one your app shows now; check the device's clock and try again.");
  }
  const accounts::RecoveryCodes codes = accounts::newRecoveryCodes();
  call.accounts.accounts().setTotpSecret(call.who->id, *secret, call.audit());
  call.accounts.accounts().replaceRecoveryCodes(call.who->id, codes.digests, call.audit());
  OPENSSL_cleanse(secret->data(), secret->size());
  call.accounts.forgetPendingTotp(digest);
  std::string out = "{\"recoveryCodes\":[";
  for (std::size_t i = 0; i < codes.codes.size(); ++i) {
    if (i > 0) out.push_back(',');
    common::appendJsonString(out, codes.codes[i]);
  }
  out += "]}";
  sendJson(call, 200, out);
}

void disableTotp(Call& call) {
  std::string password = stringField(call, "password");
  const std::optional<accounts::Credentials> credentials =
      call.accounts.accounts().findCredentials(accounts::emailKey(call.who->email));
  const bool right = credentials && call.accounts.passwords().verify(password, credentials->passwordHash);
  OPENSSL_cleanse(password.data(), password.size());
  if (!right) {
    auditRefusal(call, "account.totp-disable", call.who->id, "wrong password");
    throw invalid("password", "The password is not right.");
  }
  if (call.who->user && call.accounts.accounts().requiresTotp(call.organisationId())) {
    auditRefusal(call, "account.totp-disable", call.who->id, "the organization requires TOTP");
    throw Refusal{409, "Conflict", std::nullopt, "Your organization requires TOTP; it cannot be turned off."};
  }
  call.accounts.accounts().setTotpSecret(call.who->id, std::nullopt, call.audit());
  sendNoContent(call);
}

// --- Usage.

constexpr int kUsageDays = 30;

void usage(Call& call) {
  const std::optional<std::string> client = call.parameter("client");
  const std::optional<std::string> organisation = call.parameter("organization");
  std::vector<auth::DailyUsage> days;
  if (client && !organisation) {
    std::optional<auth::ClientRecord> found =
        auth::isWellFormedClientId(*client) ? call.accounts.registry().findClient(*client) : std::nullopt;
    if (!found || found->organisationId != call.organisationId() || found->state == auth::ClientState::Deleted) {
      throw notFound("Your organization has no API client with this id.");
    }
    days = call.usage.clientUsage(found->id, kUsageDays);
  } else if (organisation && !client && *organisation == "current") {
    days = call.usage.organisationUsage(call.organisationId(), kUsageDays);
  } else {
    throw invalid("client", "Ask for ?client=<client id> or ?organization=current.");
  }
  std::string out = "{\"days\":[";
  for (std::size_t i = 0; i < days.size(); ++i) {
    if (i > 0) out.push_back(',');
    out += "{";
    stringMember(out, "day", days[i].day);
    member(out, "tokensIssued");
    out += std::to_string(days[i].tokensIssued);
    member(out, "codesAccepted");
    out += std::to_string(days[i].codesAccepted);
    member(out, "codesRejected");
    out += std::to_string(days[i].codesRejected);
    out.push_back('}');
  }
  out += "]}";
  sendJson(call, 200, out);
}

// Paths a user whose organisation requires TOTP may use before enrolling.
bool allowedBeforeTotp(std::span<const std::string_view> segments) {
  const std::string_view first = segments.empty() ? std::string_view() : segments[0];
  return first == "session" || first == "sign-out" || first == "sign-out-everywhere" || first == "account";
}

struct Endpoint {
  std::string_view method;
  // The path after /dashboard/data/, "/"-separated; "*" matches one segment.
  std::string_view pattern;
  Audience audience;
  Permission permission;
  std::function<void(Call&)> answer;
};

bool matches(std::string_view pattern, std::span<const std::string_view> segments) {
  std::size_t index = 0;
  while (true) {
    const std::size_t slash = pattern.find('/');
    const std::string_view part = pattern.substr(0, slash);
    if (index >= segments.size()) return false;
    if (part != "*" ? part != segments[index] : segments[index].empty()) return false;
    ++index;
    if (slash == std::string_view::npos) break;
    pattern.remove_prefix(slash + 1);
  }
  return index == segments.size();
}

const std::vector<Endpoint>& endpoints() {
  static const std::vector<Endpoint> table = {
      {"POST", "sign-in", Audience::Anyone, Permission::Read, signIn},
      {"POST", "sign-out", Audience::Signed, Permission::Read, signOut},
      {"POST", "sign-out-everywhere", Audience::Signed, Permission::Read, signOutEverywhere},
      {"GET", "session", Audience::Signed, Permission::Read, session},
      {"GET", "clients", Audience::User, Permission::Read, listClients},
      {"POST", "clients", Audience::User, Permission::Clients, createClient},
      {"POST", "clients/*/block", Audience::User, Permission::Clients,
       [](Call& call) { setClientState(call, auth::ClientState::Blocked); }},
      {"POST", "clients/*/unblock", Audience::User, Permission::Clients,
       [](Call& call) { setClientState(call, auth::ClientState::Active); }},
      {"POST", "clients/*/delete", Audience::User, Permission::Clients, deleteClient},
      {"POST", "clients/*/replacement", Audience::User, Permission::Clients, replaceClient},
      {"GET", "usage", Audience::User, Permission::Read, usage},
      {"GET", "organization", Audience::User, Permission::Read, [](Call& call) { organisation(call); }},
      {"POST", "organization/users", Audience::User, Permission::Owner, createUser},
      {"POST", "organization/users/*/delete", Audience::User, Permission::Owner, deleteUser},
      {"POST", "organization/require-totp", Audience::User, Permission::Owner, requireTotp},
      {"GET", "audit", Audience::Signed, Permission::Read, audit},
      {"GET", "organizations", Audience::Operator, Permission::Read, listOrganisations},
      {"POST", "organizations", Audience::Operator, Permission::Read, createOrganisation},
      {"POST", "organizations/*/plan", Audience::Operator, Permission::Read, setOrganisationPlan},
      {"POST", "organizations/*/subscription", Audience::Operator, Permission::Read, setOrganisationSubscription},
      {"POST", "account/totp/start", Audience::Signed, Permission::Read, startTotp},
      {"POST", "account/totp/confirm", Audience::Signed, Permission::Read, confirmTotp},
      {"POST", "account/totp/disable", Audience::Signed, Permission::Read, disableTotp},
  };
  return table;
}

std::vector<std::string_view> splitPath(std::string_view rest) {
  std::vector<std::string_view> segments;
  while (true) {
    const std::size_t slash = rest.find('/');
    segments.push_back(rest.substr(0, slash));
    if (slash == std::string_view::npos) return segments;
    rest.remove_prefix(slash + 1);
  }
}

// Checks a POST's origin, session, CSRF token, role and body; then answers.
void answerData(Call& call) {
  const std::string_view method = call.exchange.method();
  const Endpoint* endpoint = nullptr;
  std::string allow;
  for (const Endpoint& candidate : endpoints()) {
    if (!matches(candidate.pattern, call.segments)) continue;
    if (candidate.method == method) endpoint = &candidate;
    allow += allow.empty() ? std::string(candidate.method) : ", " + std::string(candidate.method);
  }
  if (endpoint == nullptr) {
    if (allow.empty()) throw notFound("There is no dashboard resource at this path.");
    call.exchange.addHeader("Allow", allow);
    throw Refusal{405, "MethodNotAllowed", std::nullopt, "This resource only allows " + allow + "."};
  }
  const bool changes = method == "POST";
  if (changes) {
    if (const std::optional<std::string> refusal = crossSiteRefusal(
            call.exchange.field("Origin"), call.exchange.field("Sec-Fetch-Site"), call.exchange.field("Host"))) {
      throw forbidden(*refusal);
    }
  }
  if (endpoint->audience != Audience::Anyone) {
    resumeSession(call);
    if (!call.who) throw Refusal{401, "Unauthenticated", std::nullopt, "Sign in first; there is no active session."};
    if (changes &&
        !accounts::SessionManager::csrfTokenMatches(call.sessionId, call.exchange.field("X-CSRF-Token").value_or(""))) {
      throw forbidden("This change lacks the page's CSRF token (header X-CSRF-Token); reload the page and try again.");
    }
    if (endpoint->audience == Audience::User && call.who->isOperator) {
      throw forbidden("This part of the dashboard belongs to an organization's users; operators have no organization.");
    }
    if (endpoint->audience == Audience::Operator && !call.who->isOperator) {
      throw forbidden("Only an operator of the installation may do this.");
    }
    if (call.who->user && !call.who->totpEnabled && !allowedBeforeTotp(call.segments) &&
        call.accounts.accounts().requiresTotp(call.organisationId())) {
      throw Refusal{403, "TotpRequired", std::nullopt,
                    "Your organization requires a second factor: turn on TOTP on the Account page first."};
    }
    if (call.who->user && !roleAllows(call.who->user->role, endpoint->permission)) {
      throw forbidden(std::string(permissionSentence(endpoint->permission)) + " Your role is " +
                      std::string(accounts::roleName(call.who->user->role)) + ".");
    }
  }
  if (changes) {
    std::string text;
    switch (call.exchange.readBody(kMaxBodyBytes, text)) {
      case BodyRead::Complete: break;
      case BodyRead::TooLarge:
        throw Refusal{413, "PayloadTooLarge", std::nullopt, "A dashboard request body holds at most 64 KiB."};
      case BodyRead::LengthRequired:
        throw Refusal{411, "LengthRequired", std::nullopt, "Send Content-Length or a chunked body."};
      case BodyRead::Incomplete:
      case BodyRead::Malformed:
        throw Refusal{400, "BadRequest", std::nullopt, "The request body was cut short or malformed."};
    }
    if (text.empty()) {
      call.body = new Poco::JSON::Object;
    } else {
      const std::optional<std::string_view> type = call.exchange.field("Content-Type");
      if (!type || !common::equalsIgnoringAsciiCase(bareMediaType(*type), "application/json")) {
        throw Refusal{415, "UnsupportedMediaType", std::nullopt, "Send the body as application/json."};
      }
      try {
        const Poco::Dynamic::Var parsed = Poco::JSON::Parser().parse(text);
        if (parsed.type() == typeid(Poco::JSON::Object::Ptr)) call.body = parsed.extract<Poco::JSON::Object::Ptr>();
      } catch (const Poco::Exception&) {
        call.body = nullptr;
      }
      OPENSSL_cleanse(text.data(), text.size());
      if (!call.body)
        throw Refusal{400, "Validation.Invalid.body", std::string("body"), "The body must be a JSON object."};
    }
  }
  endpoint->answer(call);
}

// Pages: (path under /dashboard/, file, who may see it).
struct Page {
  std::string_view path;
  std::string_view file;
  Audience audience;
};

constexpr std::array<Page, 6> kPages{{
    {"sign-in", "sign-in.html", Audience::Anyone},
    {"organization", "organization.html", Audience::User},
    {"api", "api.html", Audience::User},
    {"audit", "audit.html", Audience::Signed},
    {"organizations", "organizations.html", Audience::Operator},
    {"account", "account.html", Audience::Signed},
}};

void sendFile(HttpExchange& exchange, const DashboardFile& file, RequestTrace& trace) {
  const std::optional<std::string_view> type = dashboardContentType(file.name);
  sendBody(exchange, 200, *type, file.bytes, trace);
}

void answerPage(Call& call) {
  HttpExchange& exchange = call.exchange;
  if (exchange.method() != "GET") {
    exchange.addHeader("Allow", "GET");
    throw Refusal{405, "MethodNotAllowed", std::nullopt, "This resource only allows GET."};
  }
  const std::string_view rest = exchange.path().substr(std::string_view("/dashboard/").size());
  if (rest.starts_with("assets/")) {
    const std::string_view name = rest.substr(std::string_view("assets/").size());
    const bool plain =
        !name.empty() && name.find('/') == std::string_view::npos && name.find("..") == std::string_view::npos;
    const std::optional<DashboardFile> file =
        plain ? findDashboardFile("assets/" + std::string(name)) : std::optional<DashboardFile>();
    if (!file || !dashboardContentType(file->name)) throw notFound("There is no dashboard asset with this name.");
    sendFile(exchange, *file, call.trace);
    return;
  }
  if (rest.empty()) {
    resumeSession(call);
    sendRedirect(exchange, call.who ? homeOf(*call.who) : std::string(kSignInPage), call.trace);
    return;
  }
  for (const Page& page : kPages) {
    if (page.path != rest) continue;
    if (page.audience != Audience::Anyone) {
      resumeSession(call);
      if (!call.who) {
        sendRedirect(exchange, kSignInPage, call.trace);
        return;
      }
      const bool wrongKind = (page.audience == Audience::User && call.who->isOperator) ||
                             (page.audience == Audience::Operator && !call.who->isOperator);
      if (wrongKind) {
        sendRedirect(exchange, homeOf(*call.who), call.trace);
        return;
      }
      if (page.path != "account" && call.who->user && !call.who->totpEnabled &&
          call.accounts.accounts().requiresTotp(call.who->user->organisationId)) {
        sendRedirect(exchange, "/dashboard/account", call.trace);
        return;
      }
    }
    const std::optional<DashboardFile> file = findDashboardFile(page.file);
    if (!file) throw notFound("This dashboard page is not part of this build.");
    sendFile(exchange, *file, call.trace);
    return;
  }
  throw notFound("There is no dashboard page at this path.");
}

}  // namespace

DashboardHandler::DashboardHandler(const ServiceContext& context, DashboardAccounts& accounts)
    : ServiceHandler(context, FaultBody::Envelope), accounts_(accounts) {}

void DashboardHandler::handle(HttpExchange& exchange, RequestTrace& trace) const {
  for (const auto& [name, value] : dashboardHeaders()) exchange.addHeader(name, value);
  Call call{exchange, trace, accounts_, context_.usage, {}, {}, std::nullopt, std::nullopt, nullptr, {}};
  try {
    if (exchange.field("Authorization")) {
      throw forbidden(
          "An access token opens the API, not the dashboard; the dashboard takes no Authorization header. Sign in "
          "with an email and a password instead.");
    }
    const std::string_view path = exchange.path();
    if (path.starts_with(kDataPrefix)) {
      call.segments = splitPath(path.substr(kDataPrefix.size()));
      const std::string_view target = exchange.target();
      const std::size_t question = target.find('?');
      if (question != std::string_view::npos &&
          auth::parseForm(target.substr(question + 1), 16, call.query) != auth::FormError::None) {
        throw Refusal{400, "BadRequest", std::nullopt, "The query string is malformed."};
      }
      answerData(call);
    } else {
      answerPage(call);
    }
  } catch (const Refusal& refusal) {
    sendErrorEnvelope(exchange, refusal.status, refusal.code,
                      refusal.path ? std::optional<std::string_view>(*refusal.path) : std::nullopt, refusal.message,
                      trace);
  }
}

}  // namespace codepayload::server
