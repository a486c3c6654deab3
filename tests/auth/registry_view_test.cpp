#include "auth/registry_view.h"

#include <gtest/gtest.h>

#include "auth/sql_client_registry.h"
#include "auth/sql_usage_store.h"
#include "auth_test_support.h"
#include "tests/support/scratch_registry.h"

namespace codepayload::auth {
namespace {

using testing::FakeClock;
using testing::kTestEpoch;
using testing::TempDir;

TEST(RegistryView, ReportsStandingAndReloadsOnlyWhenTheRegistryChanged) {
  TempDir dir;
  const RegistryDatabase database = codepayload::testing::freshRegistryDatabase(dir.path());
  const FakeClock clock;
  const SecretHasher hasher(std::string(32, 'p'));
  SqlClientRegistry registry(database, testing::sourceRegistryMigrations(), hasher, clock.clock());
  const Organization acme = registry.createOrganization("Acme", Plan::Pro);
  const Organization other = registry.createOrganization("Other", Plan::Pro);
  const ClientRecord client = registry.createClient(acme.id, "c", {"write:codes"}, "tester").client;

  RegistryView view(registry, clock.clock());
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch), ClientStanding::Active);
  EXPECT_EQ(view.standing(client.id, other.id, kTestEpoch), ClientStanding::Revoked);
  EXPECT_EQ(view.standing("svc_client_000000000000000000000000", acme.id, kTestEpoch), ClientStanding::Unknown);
  EXPECT_FALSE(view.refreshIfChanged());

  registry.setClientState(client.id, ClientState::Blocked);
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch), ClientStanding::Active);  // not yet refreshed
  EXPECT_TRUE(view.refreshIfChanged());
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch), ClientStanding::Revoked);
  EXPECT_FALSE(view.refreshIfChanged());

  registry.setClientState(client.id, ClientState::Active);
  registry.setSubscription(acme.id, Subscription::Inactive);
  EXPECT_TRUE(view.refreshIfChanged());
  // A token issued after the block (the one before it stays revoked: see below).
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch + 1), ClientStanding::Lapsed);

  // A change by another process (connection) is seen too.
  SqlClientRegistry otherProcess(database, testing::sourceRegistryMigrations(), hasher);
  otherProcess.setClientState(client.id, ClientState::Deleted);
  EXPECT_TRUE(view.refreshIfChanged());
  // Deleted clients are not in the view: unknown, which the bearer check refuses
  // after one refresh.
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch + 1), ClientStanding::Unknown);
}

TEST(RegistryView, TokensIssuedBeforeABlockStayRevokedAfterTheUnblock) {
  TempDir dir;
  const RegistryDatabase database = codepayload::testing::freshRegistryDatabase(dir.path());
  FakeClock clock;
  const SecretHasher hasher(std::string(32, 'p'));
  SqlClientRegistry registry(database, testing::sourceRegistryMigrations(), hasher, clock.clock());
  const Organization acme = registry.createOrganization("Acme", Plan::Pro);
  const ClientRecord client = registry.createClient(acme.id, "c", {"write:codes"}, "tester").client;
  RegistryView view(registry, clock.clock());
  EXPECT_EQ(view.standing(client.id, acme.id, 0), ClientStanding::Active);  // never blocked: any iat

  clock.set(kTestEpoch + 10);
  registry.setClientState(client.id, ClientState::Blocked);
  clock.advance(5);
  registry.setClientState(client.id, ClientState::Active);
  ASSERT_TRUE(view.refreshIfChanged());
  // Issued up to the second of the block (iat resolution): revoked.
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch), ClientStanding::Revoked);
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch + 10), ClientStanding::Revoked);
  // Dated from the second after it: valid.
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch + 11), ClientStanding::Active);
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch + 15), ClientStanding::Active);

  // A block and an unblock between two refreshes are still seen.
  clock.advance(100);
  registry.setClientState(client.id, ClientState::Blocked);
  registry.setClientState(client.id, ClientState::Active);
  ASSERT_TRUE(view.refreshIfChanged());
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch + 115), ClientStanding::Revoked);
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch + 116), ClientStanding::Active);

  // A second block in the same second moves the time past the first one's (a
  // token dated at it, issued between the two, is revoked); blocking a blocked
  // client does not move it; a clock stepped back never lowers it.
  registry.setClientState(client.id, ClientState::Blocked);  // same second: 117
  clock.advance(50);
  registry.setClientState(client.id, ClientState::Blocked);  // already blocked: unchanged
  registry.setClientState(client.id, ClientState::Active);
  clock.set(kTestEpoch);
  registry.setClientState(client.id, ClientState::Blocked);  // clock stepped back: 118
  registry.setClientState(client.id, ClientState::Active);
  ASSERT_TRUE(view.refreshIfChanged());
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch + 117), ClientStanding::Revoked);
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch + 118), ClientStanding::Active);
}

TEST(RegistryView, AUsageFlushReloadsNothingABlockDoes) {
  // The usage writer commits to registry.db every usage.flushInterval under
  // traffic, last_used_at included; the view reloads only for a standing (D-T3).
  TempDir dir;
  const RegistryDatabase database = codepayload::testing::freshRegistryDatabase(dir.path());
  const FakeClock clock;
  const SecretHasher hasher(std::string(32, 'p'));
  SqlClientRegistry registry(database, testing::sourceRegistryMigrations(), hasher, clock.clock());
  const Organization acme = registry.createOrganization("Acme", Plan::Pro);
  const ClientRecord client = registry.createClient(acme.id, "c", {"write:codes"}, "tester").client;
  RegistryView view(registry, clock.clock());
  SqlUsageStore usage(database);

  usage.add({ClientUsageDelta{client.id, acme.id, {{utcDayNumber(kTestEpoch), UsageCounts{1, 2, 0}}}, kTestEpoch}});
  EXPECT_EQ(registry.findClient(client.id)->lastUsedAt, kTestEpoch);
  EXPECT_FALSE(view.refreshIfChanged());

  registry.setClientState(client.id, ClientState::Blocked);
  usage.add(
      {ClientUsageDelta{client.id, acme.id, {{utcDayNumber(kTestEpoch), UsageCounts{1, 0, 0}}}, kTestEpoch + 60}});
  EXPECT_TRUE(view.refreshIfChanged());
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch), ClientStanding::Revoked);
  EXPECT_FALSE(view.refreshIfChanged());
}

// D-T6: the token endpoint answers the right secret of an active client from
// the view, in the second the view was checked in, and asks the registry for
// everything else.
TEST(RegistryView, VouchesForTheRightSecretOfAnActiveClientInTheSecondItWasChecked) {
  TempDir dir;
  const RegistryDatabase database = codepayload::testing::freshRegistryDatabase(dir.path());
  FakeClock clock;
  const SecretHasher hasher(std::string(32, 'p'));
  SqlClientRegistry registry(database, testing::sourceRegistryMigrations(), hasher, clock.clock());
  const Organization acme = registry.createOrganization("Acme", Plan::Pro);
  const CreatedClient client = registry.createClient(acme.id, "c", {"write:codes"}, "tester");
  // Two scopes (stored as a registry from before D-U9 may hold them): in order.
  codepayload::testing::storeScopesBehindTheRegistry(database, client.client.id, "write:codes read:codes");
  const CreatedClient blocked = registry.createClient(acme.id, "b", {"write:codes"}, "tester");
  registry.setClientState(blocked.client.id, ClientState::Blocked);
  const Organization lapsed = registry.createOrganization("Lapsed", Plan::Pro);
  const CreatedClient lapsedClient = registry.createClient(lapsed.id, "l", {"write:codes"}, "tester");
  registry.setSubscription(lapsed.id, Subscription::Inactive);
  const SecretDigest right = hasher.digest(client.secret);
  RegistryView view(registry, clock.clock());

  const ViewAuthentication vouched = view.authenticated(client.client.id, right);
  ASSERT_NE(vouched.client, nullptr);
  EXPECT_EQ(*vouched.client, registry.findClientForAuthentication(client.client.id).value());
  EXPECT_EQ(vouched.client->scopes, (std::vector<std::string>{"write:codes", "read:codes"}));
  EXPECT_EQ(vouched.checkedAt, kTestEpoch);
  // The endpoint refuses a lapsed organization's client itself (unauthorized_client).
  const ViewAuthentication lapsedVouched =
      view.authenticated(lapsedClient.client.id, hasher.digest(lapsedClient.secret));
  ASSERT_NE(lapsedVouched.client, nullptr);
  EXPECT_FALSE(lapsedVouched.client->organizationCoversApiClients);

  EXPECT_EQ(view.authenticated(client.client.id, hasher.digest(blocked.secret)).client, nullptr);  // wrong secret
  EXPECT_EQ(view.authenticated(blocked.client.id, hasher.digest(blocked.secret)).client, nullptr);
  EXPECT_EQ(view.authenticated("svc_client_000000000000000000000000", right).client, nullptr);
  EXPECT_EQ(view.authenticated(client.client.id.substr(1), right).client, nullptr);
  EXPECT_EQ(view.authenticated(client.client.id, SecretDigest{}).client, nullptr);

  // The next second, until the view is checked again.
  clock.advance(1);
  const ViewAuthentication unchecked = view.authenticated(client.client.id, right);
  EXPECT_EQ(unchecked.client, nullptr);
  EXPECT_EQ(unchecked.checkedAt, kTestEpoch + 1);
  EXPECT_FALSE(view.refreshIfChanged());
  EXPECT_EQ(view.authenticated(client.client.id, right).checkedAt, kTestEpoch + 1);
  ASSERT_NE(view.authenticated(client.client.id, right).client, nullptr);

  // A record handed out stays readable after the view reloads without it.
  const std::shared_ptr<const ClientAuthRecord> held = view.authenticated(client.client.id, right).client;
  registry.setClientState(client.client.id, ClientState::Deleted);
  EXPECT_TRUE(view.refreshIfChanged());
  EXPECT_EQ(view.authenticated(client.client.id, right).client, nullptr);
  EXPECT_EQ(held->clientId, client.client.id);
  EXPECT_EQ(held->secretDigest, right);
}

TEST(RegistryView, StopsVouchingWhileItsChecksFail) {
  TempDir dir;
  const RegistryDatabase database = codepayload::testing::freshRegistryDatabase(dir.path());
  FakeClock clock;
  const SecretHasher hasher(std::string(32, 'p'));
  SqlClientRegistry stored(database, testing::sourceRegistryMigrations(), hasher, clock.clock());
  testing::FaultInjectingRegistry registry(stored);
  const Organization acme = registry.createOrganization("Acme", Plan::Pro);
  const CreatedClient client = registry.createClient(acme.id, "c", {"write:codes"}, "tester");
  RegistryView view(registry, clock.clock());
  const SecretDigest right = hasher.digest(client.secret);
  ASSERT_NE(view.authenticated(client.client.id, right).client, nullptr);

  registry.failing = true;
  clock.advance(1);
  EXPECT_THROW(view.refreshIfChanged(), RegistryError);
  EXPECT_EQ(view.authenticated(client.client.id, right).client, nullptr);
  EXPECT_EQ(view.standing(client.client.id, acme.id, kTestEpoch),
            ClientStanding::Active);  // the bearer check's view stays
  registry.failing = false;
  EXPECT_FALSE(view.refreshIfChanged());
  EXPECT_NE(view.authenticated(client.client.id, right).client, nullptr);
}

// A row written behind the service (an operator's UPDATE) moves the version
// like any change of a row the view holds (migration 0007), so the view never
// vouches with old scopes or an old digest.
TEST(RegistryView, ReloadsWhenAClientsScopesOrDigestAreRewritten) {
  TempDir dir;
  const RegistryDatabase database = codepayload::testing::freshRegistryDatabase(dir.path());
  const FakeClock clock;
  const SecretHasher hasher(std::string(32, 'p'));
  SqlClientRegistry registry(database, testing::sourceRegistryMigrations(), hasher, clock.clock());
  const Organization acme = registry.createOrganization("Acme", Plan::Pro);
  const CreatedClient client = registry.createClient(acme.id, "c", {"write:codes"}, "tester");
  RegistryView view(registry, clock.clock());

  codepayload::testing::storeScopesBehindTheRegistry(database, client.client.id, "read:codes");
  EXPECT_TRUE(view.refreshIfChanged());
  const SecretDigest right = hasher.digest(client.secret);
  EXPECT_EQ(view.authenticated(client.client.id, right).client->scopes, (std::vector<std::string>{"read:codes"}));

  const SecretDigest replaced = hasher.digest("another-secret");
  codepayload::testing::storeSecretDigestBehindTheRegistry(database, client.client.id, replaced);
  EXPECT_TRUE(view.refreshIfChanged());
  EXPECT_EQ(view.authenticated(client.client.id, right).client, nullptr);
  EXPECT_NE(view.authenticated(client.client.id, replaced).client, nullptr);
}

TEST(RegistryView, KeepsTheOldViewWhenTheRegistryFails) {
  TempDir dir;
  const RegistryDatabase database = codepayload::testing::freshRegistryDatabase(dir.path());
  const SecretHasher hasher(std::string(32, 'p'));
  SqlClientRegistry stored(database, testing::sourceRegistryMigrations(), hasher);
  testing::FaultInjectingRegistry registry(stored);
  const Organization acme = registry.createOrganization("Acme", Plan::Pro);
  const ClientRecord client = registry.createClient(acme.id, "c", {"write:codes"}, "tester").client;
  RegistryView view(registry, systemUnixSeconds);
  registry.setClientState(client.id, ClientState::Blocked);
  registry.failing = true;
  EXPECT_THROW(view.refreshIfChanged(), RegistryError);
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch), ClientStanding::Active);
  registry.failing = false;
  EXPECT_TRUE(view.refreshIfChanged());
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch), ClientStanding::Revoked);
}

}  // namespace
}  // namespace codepayload::auth
