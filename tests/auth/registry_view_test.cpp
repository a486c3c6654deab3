#include "auth/registry_view.h"

#include <gtest/gtest.h>

#include "auth/sqlite_client_registry.h"
#include "auth/usage_store.h"
#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

using testing::FakeClock;
using testing::kTestEpoch;
using testing::TempDir;

TEST(RegistryView, ReportsStandingAndReloadsOnlyWhenTheRegistryChanged) {
  TempDir dir;
  const FakeClock clock;
  const SecretHasher hasher(std::string(32, 'p'));
  SqliteClientRegistry registry(dir.path() / "registry.db", testing::sourceRegistryMigrations(), hasher, clock.clock());
  const Organisation acme = registry.createOrganisation("Acme", Plan::Pro);
  const Organisation other = registry.createOrganisation("Other", Plan::Pro);
  const ClientRecord client = registry.createClient(acme.id, "c", {"write:codes"}, "tester").client;

  RegistryView view(registry);
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
  SqliteClientRegistry otherProcess(dir.path() / "registry.db", testing::sourceRegistryMigrations(), hasher);
  otherProcess.setClientState(client.id, ClientState::Deleted);
  EXPECT_TRUE(view.refreshIfChanged());
  // Deleted clients are not in the view: unknown, which the bearer check refuses
  // after one refresh.
  EXPECT_EQ(view.standing(client.id, acme.id, kTestEpoch + 1), ClientStanding::Unknown);
}

TEST(RegistryView, TokensIssuedBeforeABlockStayRevokedAfterTheUnblock) {
  TempDir dir;
  FakeClock clock;
  const SecretHasher hasher(std::string(32, 'p'));
  SqliteClientRegistry registry(dir.path() / "registry.db", testing::sourceRegistryMigrations(), hasher, clock.clock());
  const Organisation acme = registry.createOrganisation("Acme", Plan::Pro);
  const ClientRecord client = registry.createClient(acme.id, "c", {"write:codes"}, "tester").client;
  RegistryView view(registry);
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
  const FakeClock clock;
  const SecretHasher hasher(std::string(32, 'p'));
  SqliteClientRegistry registry(dir.path() / "registry.db", testing::sourceRegistryMigrations(), hasher, clock.clock());
  const Organisation acme = registry.createOrganisation("Acme", Plan::Pro);
  const ClientRecord client = registry.createClient(acme.id, "c", {"write:codes"}, "tester").client;
  RegistryView view(registry);
  SqliteUsageStore usage(dir.path() / "registry.db");

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

TEST(RegistryView, KeepsTheOldViewWhenTheRegistryFails) {
  TempDir dir;
  const SecretHasher hasher(std::string(32, 'p'));
  SqliteClientRegistry sqlite(dir.path() / "registry.db", testing::sourceRegistryMigrations(), hasher);
  testing::FaultInjectingRegistry registry(sqlite);
  const Organisation acme = registry.createOrganisation("Acme", Plan::Pro);
  const ClientRecord client = registry.createClient(acme.id, "c", {"write:codes"}, "tester").client;
  RegistryView view(registry);
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
