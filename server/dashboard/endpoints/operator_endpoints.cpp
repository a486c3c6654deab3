// The operator's organizations (/dashboard/data/organizations...): list, create, set an
// organization's plan or subscription, and add an owner (an organization's first user has no
// owner to add them).
#include "server/dashboard/endpoints/dashboard_endpoints.h"

namespace codepayload::server::dashboard {

namespace {

// As operators see it.
std::string organizationJson(const auth::Organization& organization) { return organizationMembers(organization) + "}"; }

auth::Plan planField(const Call& call) {
  const std::optional<auth::Plan> plan = auth::parsePlan(stringField(call, "plan"));
  if (!plan) throw invalid("plan", "The plan must be free, starter, pro or enterprise.");
  return *plan;
}

// Runs a registry change of an organization for an operator, audited; an
// unknown id is 404, a bad value 400 on `field`.
template <typename Change>
auth::Organization changeOrganization(Call& call, std::string_view action, std::string_view field, Change change) {
  const accounts::AuditContext context = call.audit();
  try {
    const DashboardAccounts::ChangeAudit audit(context);
    return change();
  } catch (const auth::RegistryError& error) {
    if (error.kind() == auth::RegistryError::Kind::UnknownOrganization) {
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

}  // namespace

void listOrganizations(Call& call) {
  std::string out = "{\"organizations\":[";
  bool first = true;
  for (const auth::Organization& organization : call.accounts.registry().listOrganizations()) {
    if (!first) out.push_back(',');
    first = false;
    out += organizationJson(organization);
  }
  out += "]}";
  sendJson(call, 200, out);
}

void createOrganization(Call& call) {
  const std::string name = stringField(call, "name");
  const auth::Plan plan = planField(call);
  const auth::Organization created = changeOrganization(
      call, "org.create", "name", [&] { return call.accounts.registry().createOrganization(name, plan); });
  sendJson(call, 201, organizationJson(created));
}

void setOrganizationPlan(Call& call) {
  const std::string id(call.segments.at(1));
  const auth::Plan plan = planField(call);
  const auth::Organization changed = changeOrganization(call, "org.set-plan", "plan", [&] {
    call.accounts.registry().setPlan(id, plan);
    return *call.accounts.registry().findOrganization(id);
  });
  call.accounts.standingChanged();
  sendJson(call, 200, organizationJson(changed));
}

void setOrganizationSubscription(Call& call) {
  const std::string id(call.segments.at(1));
  const std::optional<auth::Subscription> subscription = auth::parseSubscription(stringField(call, "subscription"));
  if (!subscription) throw invalid("subscription", "The subscription must be active or inactive.");
  const auth::Organization changed = changeOrganization(call, "org.set-subscription", "subscription", [&] {
    call.accounts.registry().setSubscription(id, *subscription);
    return *call.accounts.registry().findOrganization(id);
  });
  call.accounts.standingChanged();
  sendJson(call, 200, organizationJson(changed));
}

void addOrganizationOwner(Call& call) {
  const std::string id(call.segments.at(1));
  if (!auth::isWellFormedOrganizationId(id) || !call.accounts.registry().findOrganization(id)) {
    throw notFound("There is no organization with this id.");
  }
  addUser(call, id, Role::Owner, Disclosure::EmailTaken);
}

}  // namespace codepayload::server::dashboard
