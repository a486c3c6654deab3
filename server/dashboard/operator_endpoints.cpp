// The operator's organisations (/dashboard/data/organizations...): list, create, and set an
// organisation's plan or subscription.
#include "server/dashboard/dashboard_endpoints.h"

namespace codepayload::server::dashboard {

namespace {

// As operators see it.
std::string organisationJson(const auth::Organisation& organisation) { return organisationMembers(organisation) + "}"; }

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

}  // namespace

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
  call.accounts.standingChanged();
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
  call.accounts.standingChanged();
  sendJson(call, 200, organisationJson(changed));
}

}  // namespace codepayload::server::dashboard
