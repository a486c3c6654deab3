#include "auth/sql_client_registry.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "auth/base64.h"
#include "auth_test_support.h"
#include "db/migrations.h"
#include "tests/support/scratch_registry.h"

namespace codepayload::auth {
namespace {

using testing::FakeClock;
using testing::TempDir;

class SqlClientRegistryTest : public ::testing::Test {
 protected:
  SqlClientRegistryTest()
      : hasher_(std::string(32, 'p')),
        database_(codepayload::testing::freshRegistryDatabase(dir_.path())),
        registry_(database_, testing::sourceRegistryMigrations(), hasher_, clock_.clock()) {}

  bool onPostgresql() const { return database_.kind == RegistryDatabase::Kind::Postgresql; }
  // Runs `sql` on a connection of its own (another process, for the registry).
  void executeElsewhere(const std::string& sql) { EXPECT_EQ(codepayload::testing::rawSql(database_, sql), "") << sql; }

  Organization starterOrganization() { return registry_.createOrganization("Acme GmbH", Plan::Starter); }

  TempDir dir_;
  FakeClock clock_;
  SecretHasher hasher_;
  RegistryDatabase database_;
  SqlClientRegistry registry_;
};

// What only an SQLite registry has: a file, its modes, its journal.
using SqliteRegistryFileTest = SqlClientRegistryTest;

std::string storageErrorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::Storage);
    return error.what();
  }
  return "";
}

TEST_F(SqlClientRegistryTest, CreatesAndListsOrganizations) {
  const Organization acme = registry_.createOrganization("Acme GmbH", Plan::Pro);
  EXPECT_TRUE(isWellFormedOrganizationId(acme.id)) << acme.id;
  EXPECT_EQ(acme.name, "Acme GmbH");
  EXPECT_EQ(acme.plan, Plan::Pro);
  EXPECT_EQ(acme.subscription, Subscription::Active);
  EXPECT_EQ(acme.createdAt, testing::kTestEpoch);
  clock_.advance(5);
  const Organization beta = registry_.createOrganization("Beta \"quoted\" \xc3\xa9", Plan::Free);
  EXPECT_EQ(registry_.listOrganizations(), (std::vector<Organization>{acme, beta}));
  EXPECT_EQ(registry_.findOrganization(beta.id), beta);
  EXPECT_EQ(registry_.findOrganization("org_0000000000000000"), std::nullopt);
}

TEST_F(SqlClientRegistryTest, ChangesPlanAndSubscription) {
  const Organization acme = starterOrganization();
  registry_.setPlan(acme.id, Plan::Enterprise);
  registry_.setSubscription(acme.id, Subscription::Inactive);
  const Organization changed = *registry_.findOrganization(acme.id);
  EXPECT_EQ(changed.plan, Plan::Enterprise);
  EXPECT_EQ(changed.subscription, Subscription::Inactive);
  try {
    registry_.setPlan("org_0000000000000000", Plan::Pro);
    FAIL();
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::UnknownOrganization);
    EXPECT_STREQ(error.what(), "no organization with id \"org_0000000000000000\"");
  }
  EXPECT_THROW(registry_.setSubscription("nope", Subscription::Active), RegistryError);
}

TEST_F(SqlClientRegistryTest, RefusesBadOrganizationNames) {
  for (const std::string_view name : {std::string_view(""), std::string_view("tab\there"), std::string_view("\x7f"),
                                      std::string_view("bad \xff utf8"), std::string_view("\xc2\x85 C1")}) {
    try {
      registry_.createOrganization(name, Plan::Pro);
      FAIL() << name;
    } catch (const RegistryError& error) {
      EXPECT_EQ(error.kind(), RegistryError::Kind::InvalidValue) << name;
    }
  }
  EXPECT_NO_THROW(registry_.createOrganization(std::string(200, 'n'), Plan::Pro));
  EXPECT_THROW(registry_.createOrganization(std::string(201, 'n'), Plan::Pro), RegistryError);
  // Every bidirectional control, each named with its offset.
  for (const auto& [name, problem] :
       std::vector<std::pair<std::string, std::string>>{{"Acme\xD8\x9C", "U+061C at byte offset 4"},
                                                        {"\xE2\x80\x8E"
                                                         "Acme",
                                                         "U+200E at byte offset 0"},
                                                        {"A\xE2\x80\x8F", "U+200F at byte offset 1"},
                                                        {"A\xE2\x80\xAA", "U+202A at byte offset 1"},
                                                        {"A\xE2\x80\xAB", "U+202B at byte offset 1"},
                                                        {"A\xE2\x80\xAC", "U+202C at byte offset 1"},
                                                        {"A\xE2\x80\xAD", "U+202D at byte offset 1"},
                                                        {"Acme \xE2\x80\xAE"
                                                         "dtL",
                                                         "U+202E at byte offset 5"},
                                                        {"A\xE2\x81\xA6", "U+2066 at byte offset 1"},
                                                        {"A\xE2\x81\xA7", "U+2067 at byte offset 1"},
                                                        {"A\xE2\x81\xA8", "U+2068 at byte offset 1"},
                                                        {"A\xE2\x81\xA9", "U+2069 at byte offset 1"}}) {
    try {
      registry_.createOrganization(name, Plan::Pro);
      ADD_FAILURE() << name;
    } catch (const RegistryError& error) {
      EXPECT_EQ(error.kind(), RegistryError::Kind::InvalidValue);
      EXPECT_EQ(std::string(error.what()),
                "an organization name must not contain a bidirectional control character (" + problem + ")");
    }
  }
  // Right-to-left letters themselves are a name like any other.
  EXPECT_NO_THROW(registry_.createOrganization("\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D Acme", Plan::Pro));
  EXPECT_EQ(registry_.listOrganizations().size(), 2u);
}

TEST_F(SqlClientRegistryTest, CreatesAClientWithAFreshIdAndSecret) {
  const Organization acme = starterOrganization();
  const CreatedClient created = registry_.createClient(acme.id, "ERP", {"write:codes"}, "tester");
  EXPECT_TRUE(isWellFormedClientId(created.client.id)) << created.client.id;
  EXPECT_EQ(created.secret.size(), 43u);
  std::string secretBytes;
  EXPECT_TRUE(decodeBase64UrlStrict(created.secret, secretBytes));
  EXPECT_EQ(secretBytes.size(), 32u);
  EXPECT_EQ(created.client.organizationId, acme.id);
  EXPECT_EQ(created.client.name, "ERP");
  EXPECT_EQ(created.client.scopes, (std::vector<std::string>{"write:codes"}));
  EXPECT_EQ(created.client.state, ClientState::Active);
  EXPECT_EQ(created.client.createdBy, "tester");
  EXPECT_EQ(created.client.lastUsedAt, std::nullopt);
  EXPECT_EQ(registry_.findClient(created.client.id), created.client);

  const std::optional<ClientAuthRecord> record = registry_.findClientForAuthentication(created.client.id);
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->clientId, created.client.id);
  EXPECT_EQ(record->organizationId, acme.id);
  EXPECT_EQ(record->state, ClientState::Active);
  EXPECT_EQ(record->scopes, created.client.scopes);
  EXPECT_TRUE(SecretHasher::equal(record->secretDigest, hasher_.digest(created.secret)));
  EXPECT_TRUE(record->organizationCoversApiClients);

  clock_.advance(1);  // listed by creation time
  const CreatedClient second = registry_.createClient(acme.id, "", {"write:codes"}, "tester");
  EXPECT_NE(second.client.id, created.client.id);
  EXPECT_NE(second.secret, created.secret);
  EXPECT_EQ(registry_.listClients(acme.id), (std::vector<ClientRecord>{created.client, second.client}));
}

TEST_F(SqlClientRegistryTest, RefusesClientsUnlessTheOrganizationHasAnActiveStarterOrHigherPlan) {
  const Organization free = registry_.createOrganization("Free Ltd", Plan::Free);
  try {
    registry_.createClient(free.id, "x", {"write:codes"}, "tester");
    FAIL();
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::PlanExcludesClients);
    EXPECT_EQ(std::string(error.what()),
              "organization \"" + free.id +
                  "\" is on the free plan with an active subscription; API clients need an active subscription "
                  "on Starter or a higher plan");
  }
  const Organization lapsed = registry_.createOrganization("Lapsed Ltd", Plan::Enterprise);
  registry_.setSubscription(lapsed.id, Subscription::Inactive);
  EXPECT_THROW(registry_.createClient(lapsed.id, "x", {"write:codes"}, "tester"), RegistryError);
  try {
    registry_.createClient("org_0000000000000000", "x", {"write:codes"}, "tester");
    FAIL();
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::UnknownOrganization);
  }
  EXPECT_TRUE(registry_.listClients(free.id).empty());
  EXPECT_TRUE(registry_.listClients(lapsed.id).empty());
}

TEST_F(SqlClientRegistryTest, RefusesBadScopesAndNames) {
  const Organization acme = starterOrganization();
  const auto kindOf = [&](const std::vector<std::string>& scopes, std::string_view name) {
    try {
      registry_.createClient(acme.id, name, scopes, "tester");
    } catch (const RegistryError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(kindOf({"write codes"}, ""),
            "scope \"write codes\" is not a scope token (1 to 64 printable ASCII characters, no space, '\"' or '\\')");
  EXPECT_EQ(kindOf({""}, ""),
            "scope \"\" is not a scope token (1 to 64 printable ASCII characters, no space, '\"' or '\\')");
  EXPECT_EQ(kindOf({"a", "a"}, ""), "scope \"a\" is listed twice");
  EXPECT_EQ(kindOf(std::vector<std::string>(33, "x"), ""), "a client has at most 32 scopes");
  EXPECT_EQ(kindOf({"write:codes"}, "line\nbreak"), "a client name must be UTF-8 text without control characters");
  EXPECT_EQ(kindOf({"write:codes"}, std::string(201, 'n')), "a client name is longer than 200 bytes");
  EXPECT_EQ(kindOf({"write:codes"},
                   "invoice\xE2\x80\xAE"
                   "fdp.exe"),
            "a client name must not contain a bidirectional control character (U+202E at byte offset 7)");
  EXPECT_EQ(kindOf({"write:codes"}, "\xE2\x81\xA6line\xE2\x81\xA9"),
            "a client name must not contain a bidirectional control character (U+2066 at byte offset 0)");
  EXPECT_TRUE(registry_.listClients(acme.id).empty());
}

TEST_F(SqlClientRegistryTest, KeepsWhoCreatedAClientAndRefusesAnUnprintableCreator) {
  const Organization acme = starterOrganization();
  const CreatedClient byCli = registry_.createClient(acme.id, "a", {"write:codes"}, "cli:alice");
  const CreatedClient byUser = registry_.createClient(acme.id, "b", {"write:codes"}, "owner@example.com");
  const CreatedClient byNobody = registry_.createClient(acme.id, "c", {"write:codes"}, "");
  std::vector<std::string> creators;
  for (const ClientRecord& client : registry_.listClients(acme.id)) creators.push_back(client.createdBy);
  EXPECT_EQ(creators, (std::vector<std::string>{"cli:alice", "owner@example.com", ""}));
  EXPECT_EQ(registry_.findClient(byUser.client.id)->createdBy, "owner@example.com");
  const std::string sentence = "a client's creator must be at most 300 bytes of UTF-8 text without control characters";
  for (const std::string& creator : {std::string("tab\tinside"), std::string(301, 'x'), std::string("\xff")}) {
    try {
      registry_.createClient(acme.id, "d", {"write:codes"}, creator);
      ADD_FAILURE() << "accepted " << creator;
    } catch (const RegistryError& error) {
      EXPECT_EQ(error.kind(), RegistryError::Kind::InvalidValue);
      EXPECT_EQ(std::string(error.what()), sentence);
    }
  }
  EXPECT_NO_THROW(registry_.createClient(acme.id, "e", {"write:codes"}, std::string(300, 'x')));
  EXPECT_EQ(registry_.listClients(acme.id).size(), 4u);
}

// D-U9: only scopes the server knows, and at least one.
TEST_F(SqlClientRegistryTest, RefusesUnknownScopesAndClientsWithoutAScope) {
  const Organization acme = starterOrganization();
  const auto problemOf = [&](const std::vector<std::string>& scopes) {
    try {
      registry_.createClient(acme.id, "c", scopes, "tester");
    } catch (const RegistryError& error) {
      EXPECT_EQ(error.kind(), RegistryError::Kind::InvalidValue);
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(problemOf({}), "a client needs at least one scope (known scopes: read:codes, write:codes)");
  EXPECT_EQ(problemOf({"write:code"}),
            "unknown scope \"write:code\" (did you mean \"write:codes\"? known scopes: read:codes, write:codes)");
  EXPECT_EQ(problemOf({"Write:Codes"}),
            "unknown scope \"Write:Codes\" (did you mean \"write:codes\"? known scopes: read:codes, write:codes)");
  EXPECT_EQ(problemOf({"write:codes", "admin"}), "unknown scope \"admin\" (known scopes: read:codes, write:codes)");
  EXPECT_EQ(problemOf({"read:code"}),
            "unknown scope \"read:code\" (did you mean \"read:codes\"? known scopes: read:codes, write:codes)");
  EXPECT_TRUE(registry_.listClients(acme.id).empty());
  EXPECT_EQ(problemOf({"write:codes"}), "accepted");
  EXPECT_EQ(problemOf({"read:codes"}), "accepted");
  EXPECT_EQ(problemOf({"read:codes", "write:codes"}), "accepted");
}

TEST_F(SqlClientRegistryTest, BlocksUnblocksAndDeletesWithTombstones) {
  const Organization acme = starterOrganization();
  const CreatedClient created = registry_.createClient(acme.id, "ERP", {"write:codes"}, "tester");
  const std::string& id = created.client.id;

  registry_.setClientState(id, ClientState::Blocked);
  EXPECT_EQ(registry_.findClient(id)->state, ClientState::Blocked);
  registry_.setClientState(id, ClientState::Blocked);  // no change, no error
  registry_.setClientState(id, ClientState::Active);
  EXPECT_EQ(registry_.findClient(id)->state, ClientState::Active);
  registry_.setClientState(id, ClientState::Deleted);
  EXPECT_EQ(registry_.findClient(id)->state, ClientState::Deleted);

  const std::optional<ClientAuthRecord> tombstone = registry_.findClientForAuthentication(id);
  ASSERT_TRUE(tombstone.has_value());
  EXPECT_EQ(tombstone->state, ClientState::Deleted);
  EXPECT_EQ(tombstone->secretDigest, SecretDigest{});  // wiped
  for (const ClientState state : {ClientState::Active, ClientState::Blocked, ClientState::Deleted}) {
    try {
      registry_.setClientState(id, state);
      FAIL();
    } catch (const RegistryError& error) {
      EXPECT_EQ(error.kind(), RegistryError::Kind::ClientDeleted);
      EXPECT_EQ(std::string(error.what()), "client \"" + id + "\" is deleted and cannot be changed");
    }
  }
  try {
    registry_.setClientState("svc_client_000000000000000000000000", ClientState::Blocked);
    FAIL();
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::UnknownClient);
  }
  // The deleted client is still listed, so its id is never handed out again.
  ASSERT_EQ(registry_.listClients(acme.id).size(), 1u);
  EXPECT_EQ(registry_.listClients(acme.id)[0].state, ClientState::Deleted);
}

// "Create replacement": a new client with the old one's name and scopes, linked to it until
// either is deleted; the link is in the database, so another registry on it (a restart) sees it.
TEST_F(SqlClientRegistryTest, AReplacementIsLinkedToItsClientUntilEitherIsDeleted) {
  const Organization acme = starterOrganization();
  const CreatedClient old = registry_.createClient(acme.id, "line 4 printer", {"write:codes", "read:codes"}, "first");
  clock_.advance(60);
  const CreatedClient created = registry_.replaceClient(old.client.id, "second");
  const ClientRecord& replacement = created.client;
  EXPECT_TRUE(isWellFormedClientId(replacement.id)) << replacement.id;
  EXPECT_NE(replacement.id, old.client.id);
  EXPECT_EQ(created.secret.size(), 43u);
  EXPECT_NE(created.secret, old.secret);
  EXPECT_EQ(replacement, (ClientRecord{replacement.id,
                                       acme.id,
                                       "line 4 printer",
                                       {"write:codes", "read:codes"},
                                       ClientState::Active,
                                       testing::kTestEpoch + 60,
                                       "second",
                                       std::nullopt,
                                       old.client.id,
                                       std::nullopt}));
  EXPECT_EQ(registry_.findClient(replacement.id), replacement);
  EXPECT_EQ(registry_.findClient(old.client.id)->replacedBy, replacement.id);
  EXPECT_EQ(registry_.findClient(old.client.id)->replaces, std::nullopt);
  // Both work: the old one until it is deleted.
  EXPECT_EQ(registry_.findClientForAuthentication(old.client.id)->secretDigest, hasher_.digest(old.secret));
  EXPECT_EQ(registry_.findClientForAuthentication(replacement.id)->secretDigest, hasher_.digest(created.secret));

  {
    SqlClientRegistry reopened(database_, testing::sourceRegistryMigrations(), hasher_, clock_.clock());
    const std::vector<ClientRecord> listed = reopened.listClients(acme.id);
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(listed[0].replacedBy, replacement.id);
    EXPECT_EQ(listed[1], replacement);
  }

  // One replacement at a time.
  try {
    registry_.replaceClient(old.client.id, "second");
    FAIL();
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::AlreadyReplaced);
    EXPECT_EQ(std::string(error.what()),
              "client \"" + old.client.id + "\" is replaced by \"" + replacement.id + "\" already");
  }
  EXPECT_EQ(registry_.listClients(acme.id).size(), 2u);

  // A replacement can be replaced in turn: it then carries both links.
  const ClientRecord newer = registry_.replaceClient(replacement.id, "third").client;
  EXPECT_EQ(newer.replaces, replacement.id);
  const ClientRecord middle = *registry_.findClient(replacement.id);
  EXPECT_EQ(middle.replaces, old.client.id);
  EXPECT_EQ(middle.replacedBy, newer.id);

  // Deleting either side ends the link on both.
  registry_.setClientState(old.client.id, ClientState::Deleted);
  EXPECT_EQ(registry_.findClient(replacement.id)->replaces, std::nullopt);
  EXPECT_EQ(registry_.findClient(replacement.id)->replacedBy, newer.id);
  EXPECT_EQ(registry_.findClient(old.client.id)->replacedBy, std::nullopt);
  registry_.setClientState(newer.id, ClientState::Deleted);
  const ClientRecord alone = *registry_.findClient(replacement.id);
  EXPECT_EQ(alone.replaces, std::nullopt);
  EXPECT_EQ(alone.replacedBy, std::nullopt);
  EXPECT_EQ(registry_.findClient(newer.id)->replaces, std::nullopt);
  // Once its replacement is gone, a client can be replaced again.
  EXPECT_EQ(registry_.replaceClient(replacement.id, "fourth").client.replaces, replacement.id);
}

TEST_F(SqlClientRegistryTest, ReplacingIsRefusedForUnknownDeletedAndGatedClients) {
  const Organization acme = starterOrganization();
  const CreatedClient created = registry_.createClient(acme.id, "ERP", {"write:codes"}, "tester");
  try {
    registry_.replaceClient("svc_client_000000000000000000000000", "tester");
    FAIL();
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::UnknownClient);
    EXPECT_EQ(std::string(error.what()), "no client with id \"svc_client_000000000000000000000000\"");
  }
  registry_.setPlan(acme.id, Plan::Free);
  try {
    registry_.replaceClient(created.client.id, "tester");
    FAIL();
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::PlanExcludesClients);
  }
  registry_.setPlan(acme.id, Plan::Starter);
  EXPECT_THROW(registry_.replaceClient(created.client.id, "bad\ncreator"), RegistryError);
  registry_.setClientState(created.client.id, ClientState::Deleted);
  try {
    registry_.replaceClient(created.client.id, "tester");
    FAIL();
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::ClientDeleted);
    EXPECT_EQ(std::string(error.what()), "client \"" + created.client.id + "\" is deleted and cannot be replaced");
  }
  EXPECT_EQ(registry_.listClients(acme.id).size(), 1u);
  // The schema itself keeps a client from replacing itself, and a deleted client out of any link.
  const std::string live = registry_.createClient(acme.id, "ERP", {"write:codes"}, "tester").client.id;
  EXPECT_NE(codepayload::testing::rawSql(database_, "UPDATE api_clients SET replaces = id WHERE id = '" + live + "'"),
            "");
  EXPECT_NE(codepayload::testing::rawSql(
                database_, "UPDATE api_clients SET replaces = '" + live + "' WHERE id = '" + created.client.id + "'"),
            "");
  EXPECT_EQ(registry_.findClient(live)->replaces, std::nullopt);
}

TEST_F(SqlClientRegistryTest, BlockingMovesTokensNotBeforeToTheSecondAfterTheBlock) {
  const Organization acme = starterOrganization();
  const std::string id = registry_.createClient(acme.id, "ERP", {"write:codes"}, "tester").client.id;
  const auto notBefore = [&] {
    const std::optional<ClientAuthRecord> record = registry_.findClientForAuthentication(id);
    const std::vector<ClientAuthRecord> listed = registry_.listClientsForAuthentication();
    EXPECT_EQ(listed, std::vector<ClientAuthRecord>{record.value()});  // both reads agree
    return record.value().tokensNotBefore;
  };
  EXPECT_EQ(notBefore(), 0);
  clock_.set(testing::kTestEpoch + 100);
  registry_.setClientState(id, ClientState::Blocked);
  EXPECT_EQ(notBefore(), testing::kTestEpoch + 101);
  clock_.advance(10);
  registry_.setClientState(id, ClientState::Blocked);  // already blocked: unchanged
  registry_.setClientState(id, ClientState::Active);   // unblocking keeps it
  EXPECT_EQ(notBefore(), testing::kTestEpoch + 101);
  clock_.set(testing::kTestEpoch);  // a clock stepped back never lowers it, and a block still moves it on
  registry_.setClientState(id, ClientState::Blocked);
  EXPECT_EQ(notBefore(), testing::kTestEpoch + 102);
  registry_.setClientState(id, ClientState::Active);
  clock_.set(testing::kTestEpoch + 200);
  registry_.setClientState(id, ClientState::Blocked);
  registry_.setClientState(id, ClientState::Active);
  EXPECT_EQ(notBefore(), testing::kTestEpoch + 201);
}

// Block, unblock and block again within one second: a token issued between
// the two blocks is dated at the first block's tokensNotBefore, so the second
// block must move it past that (it once stayed put, and the token survived).
TEST_F(SqlClientRegistryTest, ASecondBlockInTheSameSecondRevokesTokensIssuedSinceTheFirst) {
  const Organization acme = starterOrganization();
  const std::string id = registry_.createClient(acme.id, "ERP", {"write:codes"}, "tester").client.id;
  clock_.set(testing::kTestEpoch + 100);
  registry_.setClientState(id, ClientState::Blocked);
  registry_.setClientState(id, ClientState::Active);
  const std::int64_t issuedAt = registry_.findClientForAuthentication(id)->tokensNotBefore;  // as the issuer dates it
  EXPECT_EQ(issuedAt, testing::kTestEpoch + 101);
  registry_.setClientState(id, ClientState::Blocked);  // same second
  EXPECT_LT(issuedAt, registry_.findClientForAuthentication(id)->tokensNotBefore);
}

TEST_F(SqlClientRegistryTest, AuthenticationRowsLeaveOutDeletedClientsAndMatchTheLookup) {
  const Organization acme = starterOrganization();
  const Organization free = registry_.createOrganization("Later Free", Plan::Pro);
  const CreatedClient active = registry_.createClient(acme.id, "a", {"write:codes"}, "tester");
  codepayload::testing::storeScopesBehindTheRegistry(database_, active.client.id, "write:codes read:codes");
  const CreatedClient blocked = registry_.createClient(acme.id, "b", {"write:codes"}, "tester");
  const CreatedClient deleted = registry_.createClient(acme.id, "c", {"write:codes"}, "tester");
  const CreatedClient downgraded = registry_.createClient(free.id, "d", {"write:codes"}, "tester");
  registry_.setClientState(blocked.client.id, ClientState::Blocked);
  registry_.setClientState(deleted.client.id, ClientState::Deleted);
  registry_.setPlan(free.id, Plan::Free);

  std::vector<ClientAuthRecord> listed = registry_.listClientsForAuthentication();
  std::sort(listed.begin(), listed.end(),
            [](const ClientAuthRecord& a, const ClientAuthRecord& b) { return a.clientId < b.clientId; });
  std::vector<ClientAuthRecord> expected;
  for (const CreatedClient* client : {&active, &blocked, &downgraded}) {
    expected.push_back(registry_.findClientForAuthentication(client->client.id).value());
    EXPECT_EQ(expected.back().secretDigest, hasher_.digest(client->secret));
  }
  std::sort(expected.begin(), expected.end(),
            [](const ClientAuthRecord& a, const ClientAuthRecord& b) { return a.clientId < b.clientId; });
  EXPECT_EQ(listed, expected);
  EXPECT_EQ(registry_.findClientForAuthentication(active.client.id)->scopes,
            (std::vector<std::string>{"write:codes", "read:codes"}));
  EXPECT_EQ(registry_.findClientForAuthentication(blocked.client.id)->state, ClientState::Blocked);
  EXPECT_FALSE(registry_.findClientForAuthentication(downgraded.client.id)->organizationCoversApiClients);
}

// A row whose scopes are not a scope list (written by hand): listed with no
// scopes and an all-zero digest, so the view never authenticates it and its
// lookup reports the fault; the other clients are listed as ever.
TEST_F(SqlClientRegistryTest, AnUnreadableRowIsListedWithoutDigestAndFailsItsOwnLookup) {
  const Organization acme = starterOrganization();
  const CreatedClient good = registry_.createClient(acme.id, "a", {"write:codes"}, "tester");
  const CreatedClient bad = registry_.createClient(acme.id, "b", {"write:codes"}, "tester");
  codepayload::testing::storeScopesBehindTheRegistry(database_, bad.client.id, "write:codes  read:codes");

  std::vector<ClientAuthRecord> listed = registry_.listClientsForAuthentication();
  ASSERT_EQ(listed.size(), 2u);
  const ClientAuthRecord& badRow = listed[0].clientId == bad.client.id ? listed[0] : listed[1];
  const ClientAuthRecord& goodRow = listed[0].clientId == bad.client.id ? listed[1] : listed[0];
  EXPECT_EQ(badRow.secretDigest, SecretDigest{});
  EXPECT_EQ(badRow.scopes, std::vector<std::string>{});
  EXPECT_EQ(badRow.state, ClientState::Active);
  EXPECT_EQ(goodRow, registry_.findClientForAuthentication(good.client.id).value());
  EXPECT_EQ(storageErrorOf([&] { registry_.findClientForAuthentication(bad.client.id); }),
            "registry database: a client's scopes are not a scope list");
}

TEST_F(SqlClientRegistryTest, VersionMovesOnOwnAndOtherConnectionsChanges) {
  const Organization acme = starterOrganization();
  const std::uint64_t start = registry_.version();
  EXPECT_EQ(registry_.version(), start);  // reading changes nothing
  registry_.listOrganizations();
  EXPECT_EQ(registry_.version(), start);
  registry_.setPlan(acme.id, Plan::Pro);
  const std::uint64_t afterOwnChange = registry_.version();
  EXPECT_NE(afterOwnChange, start);

  // Another process (here: another connection) changes the database.
  SqlClientRegistry other(database_, testing::sourceRegistryMigrations(), hasher_, clock_.clock());
  other.setSubscription(acme.id, Subscription::Inactive);
  EXPECT_NE(registry_.version(), afterOwnChange);
  EXPECT_EQ(registry_.findOrganization(acme.id)->subscription, Subscription::Inactive);
}

TEST_F(SqlClientRegistryTest, TheKeptAuthenticationQuerySeesEveryChangeAndSurvivesFaults) {
  // findClientForAuthentication keeps its prepared statement between calls:
  // each call must bind afresh, read current rows and leave it reusable.
  const Organization acme = starterOrganization();
  const std::string first = registry_.createClient(acme.id, "first", {"write:codes"}, "tester").client.id;
  const std::string second = registry_.createClient(acme.id, "second", {"write:codes"}, "tester").client.id;
  // Scopes the server no longer knows, stored before (D-U9): read as stored.
  executeElsewhere("UPDATE api_clients SET scopes = 'read:codes write:codes' WHERE id = '" + second + "'");
  EXPECT_EQ(registry_.findClientForAuthentication(first)->scopes, (std::vector<std::string>{"write:codes"}));
  EXPECT_EQ(registry_.findClientForAuthentication("svc_client_000000000000000000000000"), std::nullopt);
  EXPECT_EQ(registry_.findClientForAuthentication(""), std::nullopt);
  EXPECT_EQ(registry_.findClientForAuthentication(second)->scopes,
            (std::vector<std::string>{"read:codes", "write:codes"}));

  // Another process blocks the first client and lets the subscription lapse.
  executeElsewhere("UPDATE api_clients SET state = 'blocked' WHERE id = '" + first + "'");
  executeElsewhere("UPDATE organizations SET subscription = 'inactive' WHERE id = '" + acme.id + "'");
  const std::optional<ClientAuthRecord> blocked = registry_.findClientForAuthentication(first);
  ASSERT_TRUE(blocked.has_value());
  EXPECT_EQ(blocked->state, ClientState::Blocked);
  EXPECT_FALSE(blocked->organizationCoversApiClients);

  // A stored digest of the wrong size (past the schema's CHECK) is a storage
  // fault; the next lookup works.
  executeElsewhere(onPostgresql()
                       ? "ALTER TABLE api_clients DROP CONSTRAINT api_clients_check;"
                         " UPDATE api_clients SET secret_digest = " +
                             codepayload::testing::zeroBytesSql(database_, 31) + " WHERE id = '" + first + "'"
                       : "PRAGMA ignore_check_constraints = ON;"
                         " UPDATE api_clients SET secret_digest = zeroblob(31) WHERE id = '" +
                             first + "'");
  EXPECT_EQ(storageErrorOf([&] { registry_.findClientForAuthentication(first); }),
            "registry database holds a secret digest of the wrong size");
  EXPECT_EQ(registry_.findClientForAuthentication(second)->clientId, second);

  // The table gone under the kept statement: a storage fault naming the cause.
  executeElsewhere(onPostgresql() ? "DROP TABLE api_clients CASCADE"
                                  : "PRAGMA foreign_keys = OFF; DROP TABLE api_clients");
  EXPECT_EQ(storageErrorOf([&] { registry_.findClientForAuthentication(second); }),
            onPostgresql() ? "registry database, reading a client: relation \"api_clients\" does not exist"
                           : "registry database, reading a client: no such table: api_clients");
}

TEST_F(SqlClientRegistryTest, AnUnknownIdFindsNothingThoughItReadsAStandInClientsRow) {
  // For equal work an unknown id reads the oldest client's row instead (the
  // timing is judged in bench/token_failure_timing.cpp): never returned.
  const std::string unknown = "svc_client_000000000000000000000000";
  EXPECT_EQ(registry_.findClientForAuthentication(unknown), std::nullopt);  // no client at all yet
  const Organization acme = starterOrganization();
  const CreatedClient oldest = registry_.createClient(acme.id, "oldest", {"write:codes"}, "tester");
  executeElsewhere("UPDATE api_clients SET scopes = 'read:codes' WHERE id = '" + oldest.client.id + "'");
  const CreatedClient newer = registry_.createClient(acme.id, "newer", {"write:codes"}, "tester");
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(registry_.findClientForAuthentication(unknown), std::nullopt);
    EXPECT_EQ(registry_.findClientForAuthentication(""), std::nullopt);
    EXPECT_EQ(registry_.findClientForAuthentication(std::string(kClientIdPrefix)), std::nullopt);
    const std::optional<ClientAuthRecord> found = registry_.findClientForAuthentication(newer.client.id);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->clientId, newer.client.id);
    EXPECT_EQ(found->scopes, std::vector<std::string>{"write:codes"});
    EXPECT_EQ(found->secretDigest, hasher_.digest(newer.secret));
    EXPECT_EQ(registry_.findClientForAuthentication(oldest.client.id)->scopes, std::vector<std::string>{"read:codes"});
    // The stand-in deleted (a tombstone keeps its row): still nothing for unknown ids.
    if (round == 0) registry_.setClientState(oldest.client.id, ClientState::Deleted);
  }
  // The stand-in's row gone behind the registry's back (a restored copy): an
  // unknown id still finds nothing, and the next lookups pick a new stand-in.
  executeElsewhere("DELETE FROM api_clients WHERE id = '" + oldest.client.id + "'");
  EXPECT_EQ(registry_.findClientForAuthentication(unknown), std::nullopt);
  EXPECT_EQ(registry_.findClientForAuthentication(unknown), std::nullopt);
  EXPECT_EQ(registry_.findClientForAuthentication(newer.client.id)->clientId, newer.client.id);
}

TEST_F(SqliteRegistryFileTest, NoSecretIsStoredInPlainText) {
  const Organization acme = starterOrganization();
  std::vector<std::string> secrets;
  for (int index = 0; index < 5; ++index)
    secrets.push_back(registry_.createClient(acme.id, "c", {"write:codes"}, "tester").secret);
  registry_.setClientState(registry_.listClients(acme.id)[0].id, ClientState::Deleted);

  std::string everything;
  for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
    everything += testing::readWholeFile(entry.path());
  }
  ASSERT_GT(everything.size(), 4096u);
  for (const std::string& secret : secrets) {
    EXPECT_EQ(everything.find(secret), std::string::npos);
    std::string raw;
    ASSERT_TRUE(decodeBase64UrlStrict(secret, raw));
    EXPECT_EQ(everything.find(raw), std::string::npos);
    // Nor an unkeyed hash of it: the digest must be the peppered one.
    const SecretDigest unpeppered = SecretHasher(std::string(32, 'q')).digest(secret);
    EXPECT_EQ(everything.find(std::string(reinterpret_cast<const char*>(unpeppered.data()), 32)), std::string::npos);
  }
  // The pepper is not in the database either.
  EXPECT_EQ(everything.find(std::string(32, 'p')), std::string::npos);
}

TEST_F(SqliteRegistryFileTest, UsesWalJournalForeignKeysAndTheMigrationTable) {
  starterOrganization();
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(database_.file.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
  const auto scalar = [db](const char* sql) {
    sqlite3_stmt* statement = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &statement, nullptr), SQLITE_OK) << sql;
    EXPECT_EQ(sqlite3_step(statement), SQLITE_ROW) << sql;
    std::string value(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
    sqlite3_finalize(statement);
    return value;
  };
  EXPECT_EQ(scalar("PRAGMA journal_mode"), "wal");
  // Every file of db/registry applied, in order, under its file name.
  std::string folder;
  for (const Migration& migration : listMigrations(testing::sourceRegistryMigrations())) {
    folder += (folder.empty() ? "" : ",") + std::to_string(migration.version) + ":" + migration.fileName;
  }
  EXPECT_EQ(folder.substr(0, 23), "1:0001_registry.sql,2:0");
  EXPECT_EQ(folder.substr(folder.size() - 27), "11:0011_password_resets.sql");
  EXPECT_EQ(scalar("SELECT group_concat(version || ':' || name) FROM schema_migrations"), folder);
  // The schema refuses a client of an organization that does not exist.
  sqlite3_exec(db, "PRAGMA foreign_keys = ON", nullptr, nullptr, nullptr);
  // (The columns named: the table has gained some since, and a count
  // mismatch would fail for another reason.)
  EXPECT_EQ(sqlite3_exec(db,
                         "INSERT INTO api_clients (id, organization_id, name, scopes, state, secret_digest,"
                         " created_at, updated_at) VALUES ('svc_client_000000000000000000000000',"
                         " 'org_0000000000000000', '', '', 'active', zeroblob(32), 0, 0)",
                         nullptr, nullptr, nullptr),
            SQLITE_CONSTRAINT);
  EXPECT_STREQ(sqlite3_errmsg(db), "FOREIGN KEY constraint failed");
  sqlite3_close(db);
}

TEST(SqliteRegistryFileOpen, ReportsAnUnusableDatabaseAsStorageError) {
  TempDir dir;
  const SecretHasher hasher(std::string(32, 'p'));
  {
    std::ofstream out(dir.path() / "registry.db");
    out << "this is not a database, just text that is long enough to look like a header....";
  }
  try {
    SqlClientRegistry registry(RegistryDatabase::sqlite(dir.path() / "registry.db"),
                               testing::sourceRegistryMigrations(), hasher);
    FAIL();
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::Storage);
    EXPECT_TRUE(std::string(error.what()).starts_with("cannot ")) << error.what();
  }
  try {
    SqlClientRegistry registry(RegistryDatabase::sqlite(dir.path() / "other.db"), dir.path() / "no-migrations", hasher);
    FAIL();
  } catch (const RegistryError& error) {
    EXPECT_EQ(error.kind(), RegistryError::Kind::Storage);
    EXPECT_EQ(std::string(error.what()), "cannot migrate the registry database " + (dir.path() / "other.db").string() +
                                             ": migration folder " + (dir.path() / "no-migrations").string() +
                                             " does not exist");
  }
}

// D-S4: the registry and the -wal/-shm beside it are 0600 whatever the umask
// of the process, and an older install's 0644 files are tightened on open.
TEST(SqliteRegistryFileOpen, KeepsTheDatabaseAndItsWalAndShmFilesOwnerOnly) {
  const mode_t previousUmask = ::umask(022);
  TempDir dir;
  const SecretHasher hasher(std::string(32, 'p'));
  const auto modeOf = [](const std::filesystem::path& file) {
    struct stat status {};
    EXPECT_EQ(::stat(file.c_str(), &status), 0) << file;
    return status.st_mode & 07777;
  };
  const std::filesystem::path database = dir.path() / "registry.db";
  {
    SqlClientRegistry fresh(RegistryDatabase::sqlite(database), testing::sourceRegistryMigrations(), hasher);
    fresh.createOrganization("Acme GmbH", Plan::Starter);
    for (const char* suffix : {"", "-wal", "-shm"}) EXPECT_EQ(modeOf(database.string() + suffix), 0600u) << suffix;
  }
  // As an install before D-S4 left it (a crash keeps -wal and -shm).
  for (const char* suffix : {"", "-wal", "-shm"}) {
    const std::string file = database.string() + suffix;
    if (!std::filesystem::exists(file)) std::ofstream(file).close();
    ASSERT_EQ(::chmod(file.c_str(), 0644), 0);
  }
  SqlClientRegistry reopened(RegistryDatabase::sqlite(database), testing::sourceRegistryMigrations(), hasher);
  reopened.createOrganization("Beta AG", Plan::Pro);
  for (const char* suffix : {"", "-wal", "-shm"}) EXPECT_EQ(modeOf(database.string() + suffix), 0600u) << suffix;
  EXPECT_EQ(reopened.listOrganizations().size(), 2u);
  ::umask(previousUmask);
}

TEST_F(SqlClientRegistryTest, HandsEveryChangeToTheRecorderInsideItsTransaction) {
  std::vector<RegistryChange> changes;
  registry_.setChangeRecorder([&](Poco::Data::Session&, const RegistryChange& change) { changes.push_back(change); });
  const Organization acme = starterOrganization();
  registry_.setPlan(acme.id, Plan::Pro);
  registry_.setSubscription(acme.id, Subscription::Active);
  const CreatedClient created = registry_.createClient(acme.id, "Billing", {"write:codes"}, "tester");
  const std::string& client = created.client.id;
  registry_.setClientState(client, ClientState::Blocked);
  registry_.setClientState(client, ClientState::Blocked);
  registry_.setClientState(client, ClientState::Active);
  const std::string replacement = registry_.replaceClient(client, "tester").client.id;
  registry_.setClientState(client, ClientState::Deleted);
  EXPECT_EQ(changes, (std::vector<RegistryChange>{
                         {"org.create", acme.id, acme.id, "plan=starter name=Acme GmbH"},
                         {"org.set-plan", acme.id, acme.id, "plan=pro"},
                         {"org.set-subscription", acme.id, acme.id, "subscription=active"},
                         {"client.create", acme.id, client, "scopes=write:codes"},
                         {"client.block", acme.id, client, ""},
                         {"client.block", acme.id, client, "unchanged"},
                         {"client.unblock", acme.id, client, ""},
                         {"client.replace", acme.id, replacement, "replaces=" + client + " scopes=write:codes"},
                         {"client.delete", acme.id, client, ""},
                     }));
  // No secret reaches the recorder.
  for (const RegistryChange& change : changes) EXPECT_EQ(change.detail.find(created.secret), std::string::npos);
}

TEST_F(SqlClientRegistryTest, AFailingRecorderRollsTheChangeBack) {
  const Organization acme = starterOrganization();
  const CreatedClient created = registry_.createClient(acme.id, "Billing", {"write:codes"}, "tester");
  registry_.setChangeRecorder(
      [](Poco::Data::Session&, const RegistryChange&) { throw std::runtime_error("the audit log is full"); });
  EXPECT_THROW(registry_.setClientState(created.client.id, ClientState::Blocked), std::runtime_error);
  EXPECT_THROW(registry_.setPlan(acme.id, Plan::Enterprise), std::runtime_error);
  EXPECT_THROW(registry_.createClient(acme.id, "Second", {"write:codes"}, "tester"), std::runtime_error);
  EXPECT_THROW(registry_.replaceClient(created.client.id, "tester"), std::runtime_error);
  registry_.setChangeRecorder(nullptr);
  EXPECT_EQ(registry_.findClient(created.client.id)->replacedBy, std::nullopt);
  EXPECT_EQ(registry_.findClient(created.client.id)->state, ClientState::Active);
  EXPECT_EQ(registry_.findOrganization(acme.id)->plan, Plan::Starter);
  EXPECT_EQ(registry_.listClients(acme.id).size(), 1u);
  registry_.setClientState(created.client.id, ClientState::Blocked);  // the connection still works
  EXPECT_EQ(registry_.findClient(created.client.id)->state, ClientState::Blocked);
}

}  // namespace
}  // namespace codepayload::auth
