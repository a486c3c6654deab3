#include "auth/client_registry.h"

#include <gtest/gtest.h>

namespace codepayload::auth {
namespace {

TEST(ClientRegistryNames, PlansRoundTrip) {
  EXPECT_EQ(planName(Plan::Free), "free");
  EXPECT_EQ(planName(Plan::Starter), "starter");
  EXPECT_EQ(planName(Plan::Pro), "pro");
  EXPECT_EQ(planName(Plan::Enterprise), "enterprise");
  EXPECT_EQ(parsePlan("starter"), Plan::Starter);
  EXPECT_EQ(parsePlan("enterprise"), Plan::Enterprise);
  EXPECT_EQ(parsePlan("Starter"), std::nullopt);
  EXPECT_EQ(parsePlan("gold"), std::nullopt);
  EXPECT_EQ(parsePlan(""), std::nullopt);
}

TEST(ClientRegistryNames, SubscriptionsAndStates) {
  EXPECT_EQ(subscriptionName(Subscription::Active), "active");
  EXPECT_EQ(subscriptionName(Subscription::Inactive), "inactive");
  EXPECT_EQ(parseSubscription("inactive"), Subscription::Inactive);
  EXPECT_EQ(parseSubscription("ACTIVE"), std::nullopt);
  EXPECT_EQ(clientStateName(ClientState::Active), "active");
  EXPECT_EQ(clientStateName(ClientState::Blocked), "blocked");
  EXPECT_EQ(clientStateName(ClientState::Deleted), "deleted");
}

TEST(CoversApiClients, NeedsAnActiveStarterOrHigherPlan) {
  EXPECT_FALSE(coversApiClients(Plan::Free, Subscription::Active));
  EXPECT_TRUE(coversApiClients(Plan::Starter, Subscription::Active));
  EXPECT_TRUE(coversApiClients(Plan::Pro, Subscription::Active));
  EXPECT_TRUE(coversApiClients(Plan::Enterprise, Subscription::Active));
  EXPECT_FALSE(coversApiClients(Plan::Starter, Subscription::Inactive));
  EXPECT_FALSE(coversApiClients(Plan::Enterprise, Subscription::Inactive));
}

TEST(ApiClientCoverage, NamesWhyClientsAreNotCoveredTheSubscriptionFirst) {
  EXPECT_EQ(apiClientCoverage(Plan::Starter, Subscription::Active), ApiClientCoverage::Covered);
  EXPECT_EQ(apiClientCoverage(Plan::Enterprise, Subscription::Active), ApiClientCoverage::Covered);
  EXPECT_EQ(apiClientCoverage(Plan::Free, Subscription::Active), ApiClientCoverage::PlanExcludesClients);
  EXPECT_EQ(apiClientCoverage(Plan::Pro, Subscription::Inactive), ApiClientCoverage::SubscriptionInactive);
  EXPECT_EQ(apiClientCoverage(Plan::Free, Subscription::Inactive), ApiClientCoverage::SubscriptionInactive);
}

TEST(WellFormedIds, ClientIds) {
  EXPECT_TRUE(isWellFormedClientId("svc_client_AbCdEfGhIjKlMnOpQrStUv09"));
  EXPECT_FALSE(isWellFormedClientId("svc_client_AbCdEfGhIjKlMnOpQrStUv0"));    // 23
  EXPECT_FALSE(isWellFormedClientId("svc_client_AbCdEfGhIjKlMnOpQrStUv091"));  // 25
  EXPECT_FALSE(isWellFormedClientId("SVC_CLIENT_AbCdEfGhIjKlMnOpQrStUv09"));
  EXPECT_FALSE(isWellFormedClientId("svc_other_AbCdEfGhIjKlMnOpQrStUv090"));
  EXPECT_FALSE(isWellFormedClientId("svc_client_AbCdEfGhIjKlMnOpQrStUv-9"));
  EXPECT_FALSE(isWellFormedClientId("svc_client_"));
  EXPECT_FALSE(isWellFormedClientId(std::string_view("svc_client_AbCdEfGhIjKlMnOpQrStUv0\0", 35)));
}

TEST(WellFormedIds, OrganizationIds) {
  EXPECT_TRUE(isWellFormedOrganizationId("org_0123456789abcdef"));
  EXPECT_FALSE(isWellFormedOrganizationId("org_0123456789abcde"));
  EXPECT_FALSE(isWellFormedOrganizationId("svc_client_AbCdEfGhIjKlMnOpQrStUv09"));
  EXPECT_FALSE(isWellFormedOrganizationId("ORG_0123456789abcdef"));
}

TEST(IsValidScope, FollowsRfc6749ScopeTokens) {
  EXPECT_TRUE(isValidScope("write:codes"));
  EXPECT_TRUE(isValidScope("!#[]~"));
  EXPECT_TRUE(isValidScope(std::string(64, 'a')));
  EXPECT_FALSE(isValidScope(std::string(65, 'a')));
  EXPECT_FALSE(isValidScope(""));
  EXPECT_FALSE(isValidScope("write codes"));
  EXPECT_FALSE(isValidScope("a\"b"));
  EXPECT_FALSE(isValidScope("a\\b"));
  EXPECT_FALSE(isValidScope("caf\xc3\xa9"));
  EXPECT_FALSE(isValidScope("tab\there"));
}

TEST(JoinScopes, JoinsWithSingleSpacesInOrder) {
  EXPECT_EQ(joinScopes({}), "");
  EXPECT_EQ(joinScopes({"write:codes"}), "write:codes");
  EXPECT_EQ(joinScopes({"write:codes", "read:codes", "a"}), "write:codes read:codes a");
}

// The tokens forEachScopeInList hands over, or "invalid" when it refuses.
std::vector<std::string> scopesIn(std::string_view list) {
  std::vector<std::string> scopes;
  if (!forEachScopeInList(list, [&scopes](std::string_view scope) { scopes.emplace_back(scope); })) return {"invalid"};
  return scopes;
}

TEST(ForEachScopeInList, ReadsSingleSpaceSeparatedScopeTokens) {
  EXPECT_EQ(scopesIn("write:codes"), std::vector<std::string>{"write:codes"});
  EXPECT_EQ(scopesIn("write:codes read:codes a"), (std::vector<std::string>{"write:codes", "read:codes", "a"}));
  EXPECT_EQ(scopesIn("a a"), (std::vector<std::string>{"a", "a"}));  // repeats are the caller's to judge
  EXPECT_EQ(scopesIn(std::string(64, 'a') + " b"), (std::vector<std::string>{std::string(64, 'a'), "b"}));
  EXPECT_EQ(scopesIn(joinScopes({"x:y", "!#[]~"})), (std::vector<std::string>{"x:y", "!#[]~"}));
}

TEST(ForEachScopeInList, RefusesWhatIsNotAScopeList) {
  for (const std::string list : {"", " ", "a ", " a", "a  b", "a\tb", "a\"b", "caf\xc3\xa9", "a \x7f"}) {
    EXPECT_EQ(scopesIn(list), std::vector<std::string>{"invalid"}) << list;
  }
  EXPECT_EQ(scopesIn("a " + std::string(65, 'b')), std::vector<std::string>{"invalid"});
  // It stops at the first bad entry: the tokens before it were handed over.
  std::vector<std::string> seen;
  EXPECT_FALSE(forEachScopeInList("a b  c", [&seen](std::string_view scope) { seen.emplace_back(scope); }));
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace codepayload::auth
