// AC-*: the token endpoint's own registry connections.
#include "auth/authentication_connections.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "auth/sql_client_registry.h"
#include "auth_test_support.h"
#include "tests/support/scratch_registry.h"

namespace codepayload::auth {
namespace {

using testing::FakeClock;
using testing::TempDir;

constexpr const char* kOneClientQuery =
    "SELECT id, organization_id, state, scopes, secret_digest, 'pro', 'active', CAST(0 AS BIGINT) FROM api_clients"
    " WHERE id = CASE WHEN EXISTS (SELECT 1 FROM api_clients WHERE id = $1) THEN $1 ELSE $2 END";

class AuthenticationConnectionsTest : public ::testing::Test {
 protected:
  AuthenticationConnectionsTest()
      : hasher_(std::string(32, 'p')),
        database_(codepayload::testing::freshRegistryDatabase(dir_.path())),
        registry_(database_, testing::sourceRegistryMigrations(), hasher_, clock_.clock()) {}

  TempDir dir_;
  FakeClock clock_;
  SecretHasher hasher_;
  RegistryDatabase database_;
  SqlClientRegistry registry_;
};

TEST_F(AuthenticationConnectionsTest, LeasesHeldTogetherAreDifferentConnections) {
  // AC-01: a lease never hands out a connection another lease holds.
  AuthenticationConnections connections(database_, kOneClientQuery);
  std::vector<AuthenticationConnections::Lease> leases;
  std::set<const AuthenticationConnections::Connection*> distinct;
  for (std::size_t index = 0; index < AuthenticationConnections::kCount; ++index) {
    leases.push_back(connections.lease());
    distinct.insert(&*leases.back());
  }
  EXPECT_EQ(distinct.size(), AuthenticationConnections::kCount);
}

TEST_F(AuthenticationConnectionsTest, EachConnectionReadsWhatTheRegistryCommitted) {
  // AC-02: every connection sees a client created after it was first used.
  const Organization acme = registry_.createOrganization("Acme", Plan::Pro);
  const CreatedClient first = registry_.createClient(acme.id, "first", {"write:codes"}, "test");
  AuthenticationConnections connections(database_, kOneClientQuery);
  std::vector<AuthenticationConnections::Lease> leases;
  for (std::size_t index = 0; index < AuthenticationConnections::kCount; ++index) {
    leases.push_back(connections.lease());
    AuthenticationRow row;
    ASSERT_TRUE(leases.back()->query().run(first.client.id, first.client.id, row));
    EXPECT_EQ(row.clientId, first.client.id);
  }
  const CreatedClient second = registry_.createClient(acme.id, "second", {"write:codes"}, "test");
  for (AuthenticationConnections::Lease& lease : leases) {
    AuthenticationRow row;
    ASSERT_TRUE(lease->query().run(second.client.id, first.client.id, row));
    EXPECT_EQ(row.clientId, second.client.id);
    EXPECT_EQ(row.secretDigest, hasher_.digest(second.secret));
  }
}

TEST_F(AuthenticationConnectionsTest, ConcurrentLookupsThroughTheRegistryFindTheirOwnClients) {
  // AC-03: 8 threads, 200 lookups each, known and unknown ids interleaved.
  const Organization acme = registry_.createOrganization("Acme", Plan::Pro);
  std::vector<CreatedClient> clients;
  for (int index = 0; index < 8; ++index) {
    clients.push_back(registry_.createClient(acme.id, "c" + std::to_string(index), {"write:codes"}, "test"));
  }
  const std::string unknown = std::string(kClientIdPrefix) + std::string(kClientIdRandomLength, 'Z');
  std::vector<int> mismatches(clients.size(), 0);
  std::vector<std::thread> threads;
  for (std::size_t thread = 0; thread < clients.size(); ++thread) {
    threads.emplace_back([&, thread] {
      for (int round = 0; round < 200; ++round) {
        const std::optional<ClientAuthRecord> found = registry_.findClientForAuthentication(clients[thread].client.id);
        if (!found || found->clientId != clients[thread].client.id ||
            found->secretDigest != hasher_.digest(clients[thread].secret) ||
            registry_.findClientForAuthentication(unknown).has_value()) {
          ++mismatches[thread];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches, std::vector<int>(clients.size(), 0));
}

}  // namespace
}  // namespace codepayload::auth
