#include "server/auth/registry_view.h"

#include <gtest/gtest.h>

#include "auth_test_support.h"
#include "server/auth/sqlite_client_registry.h"

namespace codepayload::auth {
namespace {

using testing::TempDir;

TEST(RegistryView, ReportsStandingAndReloadsOnlyWhenTheRegistryChanged) {
  TempDir dir;
  const SecretHasher hasher(std::string(32, 'p'));
  SqliteClientRegistry registry(dir.path() / "registry.db", testing::sourceRegistryMigrations(), hasher);
  const Organisation acme = registry.createOrganisation("Acme", Plan::Pro);
  const Organisation other = registry.createOrganisation("Other", Plan::Pro);
  const ClientRecord client = registry.createClient(acme.id, "c", {}).client;

  RegistryView view(registry);
  EXPECT_EQ(view.standing(client.id, acme.id), ClientStanding::Active);
  EXPECT_EQ(view.standing(client.id, other.id), ClientStanding::Revoked);
  EXPECT_EQ(view.standing("svc_client_000000000000000000000000", acme.id), ClientStanding::Unknown);
  EXPECT_FALSE(view.refreshIfChanged());

  registry.setClientState(client.id, ClientState::Blocked);
  EXPECT_EQ(view.standing(client.id, acme.id), ClientStanding::Active);  // not yet refreshed
  EXPECT_TRUE(view.refreshIfChanged());
  EXPECT_EQ(view.standing(client.id, acme.id), ClientStanding::Revoked);
  EXPECT_FALSE(view.refreshIfChanged());

  registry.setClientState(client.id, ClientState::Active);
  registry.setSubscription(acme.id, Subscription::Inactive);
  EXPECT_TRUE(view.refreshIfChanged());
  EXPECT_EQ(view.standing(client.id, acme.id), ClientStanding::Lapsed);

  // A change by another process (connection) is seen too.
  SqliteClientRegistry otherProcess(dir.path() / "registry.db", testing::sourceRegistryMigrations(), hasher);
  otherProcess.setClientState(client.id, ClientState::Deleted);
  EXPECT_TRUE(view.refreshIfChanged());
  // Deleted clients are not in the view: unknown, which the bearer check refuses
  // after one refresh.
  EXPECT_EQ(view.standing(client.id, acme.id), ClientStanding::Unknown);
}

TEST(RegistryView, KeepsTheOldViewWhenTheRegistryFails) {
  TempDir dir;
  const SecretHasher hasher(std::string(32, 'p'));
  SqliteClientRegistry sqlite(dir.path() / "registry.db", testing::sourceRegistryMigrations(), hasher);
  testing::FaultInjectingRegistry registry(sqlite);
  const Organisation acme = registry.createOrganisation("Acme", Plan::Pro);
  const ClientRecord client = registry.createClient(acme.id, "c", {}).client;
  RegistryView view(registry);
  registry.setClientState(client.id, ClientState::Blocked);
  registry.failing = true;
  EXPECT_THROW(view.refreshIfChanged(), RegistryError);
  EXPECT_EQ(view.standing(client.id, acme.id), ClientStanding::Active);
  registry.failing = false;
  EXPECT_TRUE(view.refreshIfChanged());
  EXPECT_EQ(view.standing(client.id, acme.id), ClientStanding::Revoked);
}

}  // namespace
}  // namespace codepayload::auth
