#include "auth/client_registry.h"

namespace codepayload::auth {

namespace {

bool isBase62(char character) {
  return (character >= '0' && character <= '9') || (character >= 'A' && character <= 'Z') ||
         (character >= 'a' && character <= 'z');
}

bool hasShape(std::string_view id, std::string_view prefix, std::size_t randomLength) {
  if (id.size() != prefix.size() + randomLength || id.substr(0, prefix.size()) != prefix) return false;
  for (const char character : id.substr(prefix.size())) {
    if (!isBase62(character)) return false;
  }
  return true;
}

}  // namespace

std::string_view planName(Plan plan) {
  switch (plan) {
    case Plan::Free: return "free";
    case Plan::Starter: return "starter";
    case Plan::Pro: return "pro";
    case Plan::Enterprise: return "enterprise";
  }
  return "free";
}

std::optional<Plan> parsePlan(std::string_view name) {
  for (const Plan plan : {Plan::Free, Plan::Starter, Plan::Pro, Plan::Enterprise}) {
    if (planName(plan) == name) return plan;
  }
  return std::nullopt;
}

std::string_view subscriptionName(Subscription subscription) {
  return subscription == Subscription::Active ? "active" : "inactive";
}

std::optional<Subscription> parseSubscription(std::string_view name) {
  if (name == "active") return Subscription::Active;
  if (name == "inactive") return Subscription::Inactive;
  return std::nullopt;
}

std::string_view clientStateName(ClientState state) {
  switch (state) {
    case ClientState::Active: return "active";
    case ClientState::Blocked: return "blocked";
    case ClientState::Deleted: return "deleted";
  }
  return "deleted";
}

ApiClientCoverage apiClientCoverage(Plan plan, Subscription subscription) {
  if (subscription != Subscription::Active) return ApiClientCoverage::SubscriptionInactive;
  if (plan == Plan::Free) return ApiClientCoverage::PlanExcludesClients;
  return ApiClientCoverage::Covered;
}

bool coversApiClients(Plan plan, Subscription subscription) {
  return apiClientCoverage(plan, subscription) == ApiClientCoverage::Covered;
}

bool isWellFormedClientId(std::string_view id) { return hasShape(id, kClientIdPrefix, kClientIdRandomLength); }

bool isWellFormedOrganizationId(std::string_view id) {
  return hasShape(id, kOrganizationIdPrefix, kOrganizationIdRandomLength);
}

bool isValidScope(std::string_view scope) {
  if (scope.empty() || scope.size() > 64) return false;
  for (const char character : scope) {
    const auto byte = static_cast<unsigned char>(character);
    if (byte < 0x21 || byte > 0x7E || byte == 0x22 || byte == 0x5C) return false;
  }
  return true;
}

bool forEachScopeInList(std::string_view list, const std::function<void(std::string_view scope)>& onScope) {
  for (;;) {
    const std::size_t end = list.find(' ');
    const std::string_view scope = list.substr(0, end);
    if (!isValidScope(scope)) return false;
    onScope(scope);
    if (end == std::string_view::npos) return true;
    list.remove_prefix(end + 1);
  }
}

std::string joinScopes(const std::vector<std::string>& scopes) {
  std::string joined;
  for (const std::string& scope : scopes) {
    if (!joined.empty()) joined.push_back(' ');
    joined += scope;
  }
  return joined;
}

}  // namespace codepayload::auth
