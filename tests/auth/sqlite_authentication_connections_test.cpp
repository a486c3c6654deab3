// AC-*: the token endpoint's own registry connections.
#include "auth/sqlite_authentication_connections.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "auth/sqlite_client_registry.h"
#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

using testing::FakeClock;
using testing::TempDir;

constexpr const char* kOneClientQuery =
    "SELECT id, organization_id, state, scopes, secret_digest, 'pro', 'active', 0 FROM api_clients"
    " WHERE id = CASE WHEN EXISTS (SELECT 1 FROM api_clients WHERE id = $1) THEN $1 ELSE $2 END";

class SqliteAuthenticationConnectionsTest : public ::testing::Test {
 protected:
  SqliteAuthenticationConnectionsTest()
      : hasher_(std::string(32, 'p')),
        registry_(databaseFile(), testing::sourceRegistryMigrations(), hasher_, clock_.clock()) {}

  std::filesystem::path databaseFile() const { return dir_.path() / "registry.db"; }

  TempDir dir_;
  FakeClock clock_;
  SecretHasher hasher_;
  SqliteClientRegistry registry_;
};

TEST_F(SqliteAuthenticationConnectionsTest, LeasesHeldTogetherAreDifferentConnections) {
  // AC-01: a lease never hands out a connection another lease holds.
  SqliteAuthenticationConnections connections(databaseFile(), kOneClientQuery);
  std::vector<SqliteAuthenticationConnections::Lease> leases;
  std::set<const SqliteAuthenticationConnections::Connection*> distinct;
  for (std::size_t index = 0; index < SqliteAuthenticationConnections::kCount; ++index) {
    leases.push_back(connections.lease());
    distinct.insert(&*leases.back());
  }
  EXPECT_EQ(distinct.size(), SqliteAuthenticationConnections::kCount);
}

TEST_F(SqliteAuthenticationConnectionsTest, EachConnectionReadsWhatTheRegistryCommitted) {
  // AC-02: every connection sees a client created after it was first used.
  const Organization acme = registry_.createOrganization("Acme", Plan::Pro);
  const CreatedClient first = registry_.createClient(acme.id, "first", {"write:codes"}, "test");
  SqliteAuthenticationConnections connections(databaseFile(), kOneClientQuery);
  std::vector<SqliteAuthenticationConnections::Lease> leases;
  for (std::size_t index = 0; index < SqliteAuthenticationConnections::kCount; ++index) {
    leases.push_back(connections.lease());
    AuthenticationRow row;
    ASSERT_TRUE(leases.back()->query().run(first.client.id, first.client.id, row));
    EXPECT_EQ(row.clientId, first.client.id);
  }
  const CreatedClient second = registry_.createClient(acme.id, "second", {"write:codes"}, "test");
  for (SqliteAuthenticationConnections::Lease& lease : leases) {
    AuthenticationRow row;
    ASSERT_TRUE(lease->query().run(second.client.id, first.client.id, row));
    EXPECT_EQ(row.clientId, second.client.id);
    EXPECT_EQ(row.secretDigest, hasher_.digest(second.secret));
  }
}

TEST_F(SqliteAuthenticationConnectionsTest, ConcurrentLookupsThroughTheRegistryFindTheirOwnClients) {
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
