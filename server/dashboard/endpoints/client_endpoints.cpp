// The organization's API clients (/dashboard/data/clients...): list, create, block, unblock,
// delete, and replacement (a new client with the same name and scopes that records which
// client it replaces, until either is deleted).
#include "auth/known_scopes.h"
#include "common/error_codes.h"
#include "common/json_escape.h"
#include "common/utc_time.h"
#include "server/dashboard/endpoints/dashboard_endpoints.h"

namespace codepayload::server::dashboard {

namespace {

// How many of a client ID's last characters the delete dialog asks for: they tell apart a
// client and its replacement, which share a name (24 random base62 characters end an ID, so
// six leave one chance in 56 billion that two clients share them).
constexpr std::size_t kDeleteConfirmationLength = 6;

// `lastUsedAt`: the registry's, or a later use not yet written (UsageService::lastUsedAt).
// `standing` is what the token endpoint makes of the client now: its state, except that an
// active client of an organization that cannot get tokens (`suspension`) is "suspended", with
// the suspension's reason as `standingReason` (null otherwise).
std::string clientJson(const auth::ClientRecord& client, std::optional<std::int64_t> lastUsedAt,
                       const std::optional<ClientSuspension>& suspension) {
  const bool suspended = suspension && client.state == auth::ClientState::Active;
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
  stringMember(out, "standing", suspended ? "suspended" : auth::clientStateName(client.state));
  optionalStringMember(out, "standingReason", suspended ? std::optional(suspension->reason) : std::nullopt);
  stringMember(out, "createdAt", common::utcSecondsText(client.createdAt));
  stringMember(out, "createdBy", client.createdBy);
  member(out, "lastUsedAt");
  if (lastUsedAt) {
    common::appendJsonString(out, common::utcSecondsText(*lastUsedAt));
  } else {
    out += "null";
  }
  optionalStringMember(out, "replaces", client.replaces);
  optionalStringMember(out, "replacedBy", client.replacedBy);
  out.push_back('}');
  return out;
}

std::string createdClientJson(const auth::CreatedClient& created) {
  std::string out = "{";
  member(out, "client");
  out += clientJson(created.client, std::nullopt, std::nullopt);
  stringMember(out, "secret", created.secret);
  out.push_back('}');
  return out;
}

std::string planGateSentence(const auth::Organization& organization) {
  if (organization.subscription != auth::Subscription::Active) {
    return "The organization's subscription is inactive; API clients need an active subscription on the Starter plan "
           "or higher.";
  }
  return "The organization's plan (" + std::string(auth::planName(organization.plan)) +
         ") does not include API clients; they need the Starter plan or higher.";
}

// The organization's client `segments[1]`, not deleted.
auth::ClientRecord ownClient(Call& call) {
  const std::string_view id = call.segments.at(1);
  std::optional<auth::ClientRecord> client =
      auth::isWellFormedClientId(id) ? call.accounts.registry().findClient(id) : std::nullopt;
  if (!client || client->organizationId != call.organizationId() || client->state == auth::ClientState::Deleted) {
    throw notFound("Your organization has no API client with this id.");
  }
  return *client;
}

// One replacement at a time: a third row of the same name would bring back the confusion the
// link is there to end.
[[noreturn]] void refuseSecondReplacement(Call& call, const auth::ClientRecord& client) {
  const std::string why = "This client is already replaced by " + client.replacedBy.value_or("another client") +
                          "; delete one of the two before creating another replacement.";
  auditRefusal(call, "client.replace", client.id, why);
  throw Refusal{409, error_code::kConflict, std::nullopt, why};
}

// Runs `create` (a new client, or a replacement) for the call's organization, answering 201
// {"client","secret"}; the plan gate refuses with 409 PlanExcludesClients, a bad name or scope
// with 400 on its field, each refusal recorded as `action`.
template <typename Create>
void createClientAnswer(Call& call, std::string_view action, std::string_view target, Create create) {
  const auth::Organization organization = currentOrganization(call);
  if (!auth::coversApiClients(organization.plan, organization.subscription)) {
    const std::string why = planGateSentence(organization);
    auditRefusal(call, action, target, why);
    throw Refusal{409, error_code::kPlanExcludesClients, std::nullopt, why};
  }
  const accounts::AuditContext context = call.audit();
  const DashboardAccounts::ChangeAudit audit(context);
  try {
    const auth::CreatedClient created = create();
    sendJson(call, 201, createdClientJson(created));
  } catch (const auth::RegistryError& error) {
    if (error.kind() == auth::RegistryError::Kind::InvalidValue) {
      auditRefusal(call, action, target, error.what());
      const std::string_view field =
          std::string_view(error.what()).find("scope") != std::string_view::npos ? "scopes" : "name";
      throw invalid(field, error.what());
    }
    if (error.kind() == auth::RegistryError::Kind::PlanExcludesClients) {
      auditRefusal(call, action, target, error.what());
      throw Refusal{409, error_code::kPlanExcludesClients, std::nullopt, planGateSentence(currentOrganization(call))};
    }
    // Another request replaced it since ownClient read it.
    if (error.kind() == auth::RegistryError::Kind::AlreadyReplaced) refuseSecondReplacement(call, ownClient(call));
    throw;
  }
}

}  // namespace

void listClients(Call& call) {
  const auth::Organization organization = currentOrganization(call);
  const std::optional<ClientSuspension> suspension = clientSuspension(organization);
  const bool covers = !suspension;
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
    common::appendJsonString(out, planGateSentence(organization));
  } else if (!mayCreate) {
    common::appendJsonString(out, permissionSentence(Permission::Clients));
  } else {
    out += "null";
  }
  member(out, "clients");
  out.push_back('[');
  bool first = true;
  for (const auth::ClientRecord& client : call.accounts.registry().listClients(organization.id)) {
    if (client.state == auth::ClientState::Deleted) continue;
    if (!first) out.push_back(',');
    first = false;
    out += clientJson(client, call.usage.lastUsedAt(client), suspension);
  }
  out += "]}";
  sendJson(call, 200, out);
}

void createClient(Call& call) {
  const std::string name = stringField(call, "name");
  const std::vector<std::string> scopes = stringListField(call, "scopes");
  const std::string problem = auth::newClientScopesProblem(scopes);
  if (!problem.empty()) throw invalid("scopes", problem);
  const std::string organizationId = call.organizationId();
  createClientAnswer(call, "client.create", "", [&] {
    return call.accounts.registry().createClient(organizationId, name, scopes, call.who->email);
  });
}

void replaceClient(Call& call) {
  const auth::ClientRecord client = ownClient(call);
  if (client.replacedBy) refuseSecondReplacement(call, client);
  createClientAnswer(call, "client.replace", client.id,
                     [&] { return call.accounts.registry().replaceClient(client.id, call.who->email); });
}

void setClientState(Call& call, auth::ClientState state) {
  const auth::ClientRecord client = ownClient(call);
  {
    const accounts::AuditContext context = call.audit();
    const DashboardAccounts::ChangeAudit audit(context);
    call.accounts.registry().setClientState(client.id, state);
  }
  call.accounts.standingChanged();
  if (state == auth::ClientState::Deleted) {
    sendNoContent(call);
    return;
  }
  const std::optional<auth::ClientRecord> changed = call.accounts.registry().findClient(client.id);
  sendJson(call, 200,
           clientJson(*changed, call.usage.lastUsedAt(*changed), clientSuspension(currentOrganization(call))));
}

void deleteClient(Call& call) {
  const auth::ClientRecord client = ownClient(call);
  if (stringField(call, "idEnd") != std::string_view(client.id).substr(client.id.size() - kDeleteConfirmationLength)) {
    throw invalid("idEnd", "Type the last " + std::to_string(kDeleteConfirmationLength) +
                               " characters of the client ID exactly to confirm that it should be deleted.");
  }
  setClientState(call, auth::ClientState::Deleted);
}

}  // namespace codepayload::server::dashboard
