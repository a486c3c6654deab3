#include "auth/sql_client_registry.h"

#include <Poco/Data/LOB.h>
#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/Exception.h>
#include <Poco/Nullable.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <utility>

#include "auth/authentication_connections.h"
#include "auth/known_scopes.h"
#include "auth/random_strings.h"
#include "auth/registry_database.h"
#include "common/bidi_controls.h"
#include "common/utf8.h"
#include "db/poco_migrations.h"

namespace codepayload::auth {

namespace {

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

constexpr std::size_t kMaxNameLength = 200;
constexpr std::size_t kMaxCreatedByLength = 300;
constexpr std::size_t kMaxScopes = 32;
constexpr std::size_t kSecretBytes = 32;

// The queries are one SQL for SQLite and PostgreSQL (auth/registry_database.h);
// `rowid` is the insertion order the listings and the stand-in follow.

// The change counter of the clients' standing, which the triggers of
// db/registry/0006_client_standing_version.sql and 0007 move on every commit, by any
// connection, that can change a row of listClientsForAuthentication (D-T3, D-T6).
constexpr const char* kStandingVersionQuery = "SELECT version FROM client_standing_version";

// Valid UTF-8 without control characters (C0, DEL, C1).
bool isDisplayable(std::string_view text) {
  std::size_t index = 0;
  while (index < text.size()) {
    char32_t codePoint = 0;
    if (!common::decodeUtf8(text, index, codePoint)) return false;
    if (codePoint < 0x20 || (codePoint >= 0x7F && codePoint <= 0x9F)) return false;
  }
  return true;
}

void checkName(std::string_view name, bool mayBeEmpty, std::string_view what) {
  if (name.empty() && !mayBeEmpty) {
    throw RegistryError(RegistryError::Kind::InvalidValue, std::string(what) + " name must not be empty");
  }
  if (name.size() > kMaxNameLength) {
    throw RegistryError(RegistryError::Kind::InvalidValue,
                        std::string(what) + " name is longer than " + std::to_string(kMaxNameLength) + " bytes");
  }
  if (!isDisplayable(name)) {
    throw RegistryError(RegistryError::Kind::InvalidValue,
                        std::string(what) + " name must be UTF-8 text without control characters");
  }
  if (const std::optional<common::BidiControlAt> found = common::findBidiControl(name)) {
    throw RegistryError(RegistryError::Kind::InvalidValue,
                        common::bidiControlProblem(std::string(what) + " name", *found));
  }
}

void checkScopes(const std::vector<std::string>& scopes) {
  if (scopes.size() > kMaxScopes) {
    throw RegistryError(RegistryError::Kind::InvalidValue,
                        "a client has at most " + std::to_string(kMaxScopes) + " scopes");
  }
  std::set<std::string_view> seen;
  for (const std::string& scope : scopes) {
    if (!isValidScope(scope)) {
      throw RegistryError(
          RegistryError::Kind::InvalidValue,
          "scope \"" + scope + "\" is not a scope token (1 to 64 printable ASCII characters, no space, '\"' or '\\')");
    }
    if (!seen.insert(scope).second) {
      throw RegistryError(RegistryError::Kind::InvalidValue, "scope \"" + scope + "\" is listed twice");
    }
  }
  if (const std::string problem = newClientScopesProblem(scopes); !problem.empty()) {
    throw RegistryError(RegistryError::Kind::InvalidValue, problem);
  }
}

void checkCreator(std::string_view createdBy) {
  if (createdBy.size() > kMaxCreatedByLength || !isDisplayable(createdBy)) {
    throw RegistryError(RegistryError::Kind::InvalidValue, "a client's creator must be at most " +
                                                               std::to_string(kMaxCreatedByLength) +
                                                               " bytes of UTF-8 text without control characters");
  }
}

// The scope column as written by joinScopes; "" for a client without scopes.
std::vector<std::string> splitScopes(const std::string& joined) {
  std::vector<std::string> scopes;
  if (joined.empty()) return scopes;
  if (!forEachScopeInList(joined, [&scopes](std::string_view scope) { scopes.emplace_back(scope); })) {
    throw RegistryError(RegistryError::Kind::Storage, "registry database: a client's scopes are not a scope list");
  }
  return scopes;
}

Plan planFromColumn(const std::string& text) {
  const std::optional<Plan> plan = parsePlan(text);
  if (!plan)
    throw RegistryError(RegistryError::Kind::Storage, "registry database holds an unknown plan \"" + text + "\"");
  return *plan;
}

Subscription subscriptionFromColumn(const std::string& text) {
  const std::optional<Subscription> subscription = parseSubscription(text);
  if (!subscription) {
    throw RegistryError(RegistryError::Kind::Storage,
                        "registry database holds an unknown subscription \"" + text + "\"");
  }
  return *subscription;
}

ClientState stateFromColumn(const std::string& text) {
  for (const ClientState state : {ClientState::Active, ClientState::Blocked, ClientState::Deleted}) {
    if (clientStateName(state) == text) return state;
  }
  throw RegistryError(RegistryError::Kind::Storage, "registry database holds an unknown client state \"" + text + "\"");
}

// The row of the client whose id is the first and second parameter or, when
// there is none, of the stand-in client (the third), so that an unknown id
// costs the same as a known one: the same two index lookups, the join, and the
// same columns read and turned into a record. The first column tells which
// row it is.
constexpr const char* kAuthenticationQuery =
    "SELECT c.id, c.organization_id, c.state, c.scopes, c.secret_digest, o.plan, o.subscription,"
    " c.tokens_not_before FROM api_clients c JOIN organizations o ON o.id = c.organization_id"
    " WHERE c.id = CASE WHEN EXISTS (SELECT 1 FROM api_clients WHERE id = $1) THEN $1 ELSE $2 END";

}  // namespace

struct SqlClientRegistry::Connection {
  explicit Connection(Poco::Data::Session opened) : session(std::move(opened)) {}

  std::mutex mutex;
  Poco::Data::Session session;
  ChangeRecorder changeRecorder;

  // Hands `change` to the recorder, inside the caller's transaction.
  void record(const RegistryChange& change) {
    if (changeRecorder) changeRecorder(session, change);
  }
};

namespace {

// Runs `work` under the connection's lock; database faults become RegistryError(Storage).
template <typename Locked, typename Work>
auto guarded(Locked& connection, std::string_view what, Work&& work) -> decltype(work()) {
  return guardedRegistryWork<RegistryError>(connection.mutex, connection.session, what, RegistryError::Kind::Storage,
                                            std::forward<Work>(work));
}

}  // namespace

SqlClientRegistry::SqlClientRegistry(const RegistryDatabase& database, const std::filesystem::path& registryMigrations,
                                     const SecretHasher& hasher, UnixClock clock)
    : hasher_(hasher), clock_(std::move(clock)) {
  try {
    connection_ = std::make_unique<Connection>(openMigratedRegistrySession(database, registryMigrations));
  } catch (const RegistryOpenError& error) {
    throw RegistryError(RegistryError::Kind::Storage, error.what());
  }
  authentication_ = std::make_unique<AuthenticationConnections>(database, kAuthenticationQuery);
}

SqlClientRegistry::~SqlClientRegistry() = default;

Organization SqlClientRegistry::createOrganization(std::string_view name, Plan plan) {
  checkName(name, false, "an organization");
  return guarded(*connection_, "creating an organization", [&] {
    Poco::Data::Session& session = connection_->session;
    Organization organization;
    organization.name = name;
    organization.plan = plan;
    organization.subscription = Subscription::Active;
    organization.createdAt = clock_();
    WriteTransaction transaction(session);
    for (;;) {
      organization.id = std::string(kOrganizationIdPrefix) + randomBase62(kOrganizationIdRandomLength);
      Poco::Int64 taken = 0;
      session << "SELECT count(*) FROM organizations WHERE id = $1", bind(organization.id), into(taken), now;
      if (taken == 0) break;
    }
    session << "INSERT INTO organizations (id, name, plan, subscription, created_at, updated_at)"
               " VALUES ($1, $2, $3, 'active', $4, $5)",
        bind(organization.id), bind(organization.name), bind(std::string(planName(plan))),
        bind(Poco::Int64{organization.createdAt}), bind(Poco::Int64{organization.createdAt}), now;
    connection_->record(RegistryChange{"org.create", organization.id, organization.id,
                                       "plan=" + std::string(planName(plan)) + " name=" + organization.name});
    transaction.commit();
    return organization;
  });
}

void SqlClientRegistry::setPlan(std::string_view organizationId, Plan plan) {
  updateOrganization(organizationId, "plan", planName(plan), "changing a plan", "org.set-plan");
}

void SqlClientRegistry::setSubscription(std::string_view organizationId, Subscription subscription) {
  updateOrganization(organizationId, "subscription", subscriptionName(subscription), "changing a subscription",
                     "org.set-subscription");
}

// Sets one column of an existing organization (`column` is one of our own
// names, never input) in one transaction.
void SqlClientRegistry::updateOrganization(std::string_view organizationId, std::string_view column,
                                           std::string_view value, std::string_view what, std::string_view action) {
  guarded(*connection_, what, [&] {
    Poco::Data::Session& session = connection_->session;
    WriteTransaction transaction(session);
    Poco::Int64 found = 0;
    session << "SELECT count(*) FROM organizations WHERE id = $1", bind(std::string(organizationId)), into(found), now;
    if (found == 0) {
      throw RegistryError(RegistryError::Kind::UnknownOrganization,
                          "no organization with id \"" + std::string(organizationId) + "\"");
    }
    session << "UPDATE organizations SET " + std::string(column) + " = $1, updated_at = $2 WHERE id = $3",
        bind(std::string(value)), bind(Poco::Int64{clock_()}), bind(std::string(organizationId)), now;
    connection_->record(RegistryChange{std::string(action), std::string(organizationId), std::string(organizationId),
                                       std::string(column) + "=" + std::string(value)});
    transaction.commit();
  });
}

std::optional<Organization> SqlClientRegistry::findOrganization(std::string_view organizationId) {
  return guarded(*connection_, "reading an organization", [&]() -> std::optional<Organization> {
    std::vector<std::string> ids, names, plans, subscriptions;
    std::vector<Poco::Int64> created;
    connection_->session << "SELECT id, name, plan, subscription, created_at FROM organizations WHERE id = $1",
        bind(std::string(organizationId)), into(ids), into(names), into(plans), into(subscriptions), into(created), now;
    if (ids.empty()) return std::nullopt;
    return Organization{ids[0], names[0], planFromColumn(plans[0]), subscriptionFromColumn(subscriptions[0]),
                        created[0]};
  });
}

std::vector<Organization> SqlClientRegistry::listOrganizations() {
  return guarded(*connection_, "listing organizations", [&] {
    std::vector<std::string> ids, names, plans, subscriptions;
    std::vector<Poco::Int64> created;
    connection_->session << "SELECT id, name, plan, subscription, created_at FROM organizations"
                            " ORDER BY created_at, rowid",
        into(ids), into(names), into(plans), into(subscriptions), into(created), now;
    std::vector<Organization> organizations;
    organizations.reserve(ids.size());
    for (std::size_t row = 0; row < ids.size(); ++row) {
      organizations.push_back(Organization{ids[row], names[row], planFromColumn(plans[row]),
                                           subscriptionFromColumn(subscriptions[row]), created[row]});
    }
    return organizations;
  });
}

CreatedClient SqlClientRegistry::createClient(std::string_view organizationId, std::string_view name,
                                              const std::vector<std::string>& scopes, std::string_view createdBy) {
  checkName(name, true, "a client");
  checkScopes(scopes);
  checkCreator(createdBy);
  return guarded(*connection_, "creating a client", [&] {
    WriteTransaction transaction(connection_->session);
    CreatedClient created = insertClient(organizationId, name, scopes, createdBy, std::nullopt);
    transaction.commit();
    return created;
  });
}

CreatedClient SqlClientRegistry::replaceClient(std::string_view clientId, std::string_view createdBy) {
  checkCreator(createdBy);
  return guarded(*connection_, "replacing a client", [&] {
    Poco::Data::Session& session = connection_->session;
    WriteTransaction transaction(session);
    std::vector<std::string> organizationIds, names, scopes, states;
    session << "SELECT organization_id, name, scopes, state FROM api_clients WHERE id = $1",
        bind(std::string(clientId)), into(organizationIds), into(names), into(scopes), into(states), now;
    if (states.empty()) {
      throw RegistryError(RegistryError::Kind::UnknownClient, "no client with id \"" + std::string(clientId) + "\"");
    }
    if (stateFromColumn(states[0]) == ClientState::Deleted) {
      throw RegistryError(RegistryError::Kind::ClientDeleted,
                          "client \"" + std::string(clientId) + "\" is deleted and cannot be replaced");
    }
    std::vector<std::string> replacements;
    session << "SELECT id FROM api_clients WHERE replaces = $1", bind(std::string(clientId)), into(replacements), now;
    if (!replacements.empty()) {
      throw RegistryError(
          RegistryError::Kind::AlreadyReplaced,
          "client \"" + std::string(clientId) + "\" is replaced by \"" + replacements[0] + "\" already");
    }
    // The rules of a new client hold for a replacement too: one stored before
    // a rule was made is refused rather than copied.
    const std::vector<std::string> copiedScopes = splitScopes(scopes[0]);
    checkScopes(copiedScopes);
    CreatedClient created = insertClient(organizationIds[0], names[0], copiedScopes, createdBy, std::string(clientId));
    transaction.commit();
    return created;
  });
}

CreatedClient SqlClientRegistry::insertClient(std::string_view organizationId, std::string_view name,
                                              const std::vector<std::string>& scopes, std::string_view createdBy,
                                              const std::optional<std::string>& replaces) {
  Poco::Data::Session& session = connection_->session;
  std::vector<std::string> plans, subscriptions;
  session << "SELECT plan, subscription FROM organizations WHERE id = $1", bind(std::string(organizationId)),
      into(plans), into(subscriptions), now;
  if (plans.empty()) {
    throw RegistryError(RegistryError::Kind::UnknownOrganization,
                        "no organization with id \"" + std::string(organizationId) + "\"");
  }
  const Plan plan = planFromColumn(plans[0]);
  const Subscription subscription = subscriptionFromColumn(subscriptions[0]);
  if (!coversApiClients(plan, subscription)) {
    throw RegistryError(RegistryError::Kind::PlanExcludesClients,
                        "organization \"" + std::string(organizationId) + "\" is on the " +
                            std::string(planName(plan)) + " plan with an " +
                            std::string(subscriptionName(subscription)) +
                            " subscription; API clients need an active subscription on Starter or a higher plan");
  }

  CreatedClient created;
  ClientRecord& client = created.client;
  client.organizationId = organizationId;
  client.name = name;
  client.scopes = scopes;
  client.state = ClientState::Active;
  client.createdAt = clock_();
  client.createdBy = createdBy;
  client.replaces = replaces;
  for (;;) {
    client.id = std::string(kClientIdPrefix) + randomBase62(kClientIdRandomLength);
    Poco::Int64 taken = 0;
    session << "SELECT count(*) FROM api_clients WHERE id = $1", bind(client.id), into(taken), now;
    if (taken == 0) break;
  }
  created.secret = randomBase64Url(kSecretBytes);
  const SecretDigest digest = hasher_.digest(created.secret);
  const Poco::Data::BLOB digestBlob(digest.data(), digest.size());
  const Poco::Nullable<std::string> replacesColumn =
      replaces ? Poco::Nullable<std::string>(*replaces) : Poco::Nullable<std::string>();
  session << "INSERT INTO api_clients (id, organization_id, name, scopes, state, secret_digest, created_at,"
             " updated_at, created_by, replaces) VALUES ($1, $2, $3, $4, 'active', $5, $6, $7, $8, $9)",
      bind(client.id), bind(client.organizationId), bind(client.name), bind(joinScopes(scopes)), bind(digestBlob),
      bind(Poco::Int64{client.createdAt}), bind(Poco::Int64{client.createdAt}), bind(client.createdBy),
      bind(replacesColumn), now;
  const std::string scopesDetail = "scopes=" + joinScopes(scopes);
  connection_->record(replaces ? RegistryChange{"client.replace", client.organizationId, client.id,
                                                "replaces=" + *replaces + " " + scopesDetail}
                               : RegistryChange{"client.create", client.organizationId, client.id, scopesDetail});
  return created;
}

namespace {

// The columns of kClientColumns, one vector each.
struct ClientRows {
  std::vector<std::string> ids, organizationIds, names, scopes, states, createdBy;
  std::vector<Poco::Int64> created;
  std::vector<Poco::Nullable<Poco::Int64>> lastUsed;
  std::vector<Poco::Nullable<std::string>> replaces, replacedBy;
};

// `r`: the client that replaces `c`, if any (at most one: the unique index of
// db/registry/0010_client_replaces.sql).
constexpr const char* kClientColumns =
    "SELECT c.id, c.organization_id, c.name, c.scopes, c.state, c.created_at, c.created_by, c.last_used_at,"
    " c.replaces, r.id FROM api_clients c LEFT JOIN api_clients r ON r.replaces = c.id";

void readClientRows(Poco::Data::Session& session, const std::string& sql, const std::string& key, ClientRows& rows) {
  session << sql, bind(key), into(rows.ids), into(rows.organizationIds), into(rows.names), into(rows.scopes),
      into(rows.states), into(rows.created), into(rows.createdBy), into(rows.lastUsed), into(rows.replaces),
      into(rows.replacedBy), now;
}

std::vector<ClientRecord> clientsFromRows(const ClientRows& rows) {
  std::vector<ClientRecord> clients;
  clients.reserve(rows.ids.size());
  for (std::size_t row = 0; row < rows.ids.size(); ++row) {
    ClientRecord client{rows.ids[row],
                        rows.organizationIds[row],
                        rows.names[row],
                        splitScopes(rows.scopes[row]),
                        stateFromColumn(rows.states[row]),
                        rows.created[row],
                        rows.createdBy[row],
                        std::nullopt,
                        std::nullopt,
                        std::nullopt};
    if (!rows.lastUsed[row].isNull()) client.lastUsedAt = rows.lastUsed[row].value();
    if (!rows.replaces[row].isNull()) client.replaces = rows.replaces[row].value();
    if (!rows.replacedBy[row].isNull()) client.replacedBy = rows.replacedBy[row].value();
    clients.push_back(std::move(client));
  }
  return clients;
}

}  // namespace

std::vector<ClientRecord> SqlClientRegistry::listClients(std::string_view organizationId) {
  return guarded(*connection_, "listing clients", [&] {
    Poco::Data::Session& session = connection_->session;
    Poco::Int64 found = 0;
    session << "SELECT count(*) FROM organizations WHERE id = $1", bind(std::string(organizationId)), into(found), now;
    if (found == 0) {
      throw RegistryError(RegistryError::Kind::UnknownOrganization,
                          "no organization with id \"" + std::string(organizationId) + "\"");
    }
    ClientRows rows;
    readClientRows(session,
                   std::string(kClientColumns) + " WHERE c.organization_id = $1 ORDER BY c.created_at, c.rowid",
                   std::string(organizationId), rows);
    return clientsFromRows(rows);
  });
}

std::optional<ClientRecord> SqlClientRegistry::findClient(std::string_view clientId) {
  return guarded(*connection_, "reading a client", [&]() -> std::optional<ClientRecord> {
    ClientRows rows;
    readClientRows(connection_->session, std::string(kClientColumns) + " WHERE c.id = $1", std::string(clientId), rows);
    std::vector<ClientRecord> clients = clientsFromRows(rows);
    if (clients.empty()) return std::nullopt;
    return std::move(clients.front());
  });
}

void SqlClientRegistry::setClientState(std::string_view clientId, ClientState state) {
  guarded(*connection_, "changing a client", [&] {
    Poco::Data::Session& session = connection_->session;
    WriteTransaction transaction(session);
    std::vector<std::string> states, organizationIds;
    std::vector<Poco::Int64> notBefore;
    session << "SELECT state, tokens_not_before, organization_id FROM api_clients WHERE id = $1",
        bind(std::string(clientId)), into(states), into(notBefore), into(organizationIds), now;
    if (states.empty()) {
      throw RegistryError(RegistryError::Kind::UnknownClient, "no client with id \"" + std::string(clientId) + "\"");
    }
    const ClientState current = stateFromColumn(states[0]);
    if (current == ClientState::Deleted) {
      throw RegistryError(RegistryError::Kind::ClientDeleted,
                          "client \"" + std::string(clientId) + "\" is deleted and cannot be changed");
    }
    const std::string action = state == ClientState::Blocked  ? "client.block"
                               : state == ClientState::Active ? "client.unblock"
                                                              : "client.delete";
    if (current == state) {
      // Blocking a blocked client (or unblocking an active one) changes
      // nothing; the request is still recorded.
      if (connection_->changeRecorder) {
        connection_->record(RegistryChange{action, organizationIds[0], std::string(clientId), "unchanged"});
        transaction.commit();
      }
      return;
    }
    if (state == ClientState::Deleted) {
      // The replacement link goes with the client, on both sides: the one it
      // replaced, or that replaces it, is then a client like any other.
      session << "UPDATE api_clients SET replaces = NULL WHERE replaces = $1", bind(std::string(clientId)), now;
      session << "UPDATE api_clients SET state = 'deleted', secret_digest = NULL, replaces = NULL, updated_at = $1"
                 " WHERE id = $2",
          bind(Poco::Int64{clock_()}), bind(std::string(clientId)), now;
    } else if (state == ClientState::Blocked) {
      // iat has a resolution of one second: a token issued in this second,
      // before the block, is revoked too (the issuer dates tokens issued later
      // in this second at tokens_not_before; see TokenSubject::notBefore).
      // Never moved back (the clock may have been set back since an earlier
      // block), and always past the earlier value: tokens issued after an
      // earlier block in this same second carry iat = that value, and this
      // block revokes them too.
      const Poco::Int64 blockedAt = clock_();
      session << "UPDATE api_clients SET state = 'blocked', tokens_not_before = $1, updated_at = $2 WHERE id = $3",
          bind(std::max(notBefore[0] + 1, Poco::Int64{blockedAt + 1})), bind(blockedAt), bind(std::string(clientId)),
          now;
    } else {
      session << "UPDATE api_clients SET state = $1, updated_at = $2 WHERE id = $3",
          bind(std::string(clientStateName(state))), bind(Poco::Int64{clock_()}), bind(std::string(clientId)), now;
    }
    connection_->record(RegistryChange{action, organizationIds[0], std::string(clientId), ""});
    transaction.commit();
  });
}

// An unknown id must cost what a known one does (D-S5: the time of a refusal must not tell
// whether the id exists): the
// query then reads the stand-in client's row, and its record is built in full
// and dropped. Only a registry without any client answers a miss sooner, and
// there no id is known to compare with.
std::optional<ClientAuthRecord> SqlClientRegistry::findClientForAuthentication(std::string_view clientId) {
  const AuthenticationConnections::Lease connection = authentication_->lease();
  return registryWork<RegistryError>(
      "reading a client", RegistryError::Kind::Storage, [&]() -> std::optional<ClientAuthRecord> {
        // The stand-in is the oldest client: its id is kept once found, as ids are
        // never removed (tombstones); empty while the registry has no client.
        if (connection->standInClientId.empty()) {
          std::vector<std::string> oldest;
          connection->session() << "SELECT id FROM api_clients ORDER BY rowid LIMIT 1", into(oldest), now;
          if (!oldest.empty()) connection->standInClientId = std::move(oldest.front());
        }
        AuthenticationRow& row = connection->row;
        if (!connection->query().run(clientId, connection->standInClientId, row)) {
          // No client at all, or the stand-in is gone (a database restored from an
          // older copy): look for a stand-in again next time.
          connection->standInClientId.clear();
          return std::nullopt;
        }
        const bool found = row.clientId == clientId;
        ClientAuthRecord record;
        record.clientId = clientId;
        record.organizationId = row.organizationId;
        record.state = stateFromColumn(row.state);
        record.scopes = splitScopes(row.scopes);
        record.secretDigest = row.secretDigest;
        record.organizationCoversApiClients =
            coversApiClients(planFromColumn(row.plan), subscriptionFromColumn(row.subscription));
        record.tokensNotBefore = row.tokensNotBefore;
        if (!found) return std::nullopt;
        return record;
      });
}

// A row whose scopes or digest cannot be read keeps an all-zero digest here:
// it is never authenticated from memory, so its token requests reach
// findClientForAuthentication, which reports the fault for that client alone.
std::vector<ClientAuthRecord> SqlClientRegistry::listClientsForAuthentication() {
  return guarded(*connection_, "listing clients", [&] {
    std::vector<std::string> ids, organizationIds, states, scopes, plans, subscriptions;
    std::vector<Poco::Data::BLOB> digests;
    std::vector<Poco::Int64> notBefore;
    connection_->session << "SELECT c.id, c.organization_id, c.state, c.scopes, c.secret_digest, o.plan,"
                            " o.subscription, c.tokens_not_before"
                            " FROM api_clients c JOIN organizations o ON o.id = c.organization_id"
                            " WHERE c.state <> 'deleted'",
        into(ids), into(organizationIds), into(states), into(scopes), into(digests), into(plans), into(subscriptions),
        into(notBefore), now;
    std::vector<ClientAuthRecord> records(ids.size());
    for (std::size_t row = 0; row < ids.size(); ++row) {
      ClientAuthRecord& record = records[row];
      record.clientId = std::move(ids[row]);
      record.organizationId = std::move(organizationIds[row]);
      record.state = stateFromColumn(states[row]);
      record.organizationCoversApiClients =
          coversApiClients(planFromColumn(plans[row]), subscriptionFromColumn(subscriptions[row]));
      record.tokensNotBefore = notBefore[row];
      const bool scopesReadable =
          scopes[row].empty() ||
          forEachScopeInList(scopes[row], [&record](std::string_view scope) { record.scopes.emplace_back(scope); });
      if (scopesReadable && digests[row].size() == kSecretDigestSize) {
        std::copy_n(digests[row].rawContent(), kSecretDigestSize, record.secretDigest.begin());
      } else {
        record.scopes.clear();
      }
    }
    return records;
  });
}

void SqlClientRegistry::setChangeRecorder(ChangeRecorder recorder) {
  connection_->changeRecorder = std::move(recorder);
}

std::uint64_t SqlClientRegistry::version() {
  return guarded(*connection_, "reading the client standing version", [&] {
    std::vector<Poco::Int64> versions;
    connection_->session << kStandingVersionQuery, into(versions), now;
    if (versions.size() != 1) {
      throw RegistryError(RegistryError::Kind::Storage, "registry database holds " + std::to_string(versions.size()) +
                                                            " rows in client_standing_version instead of one");
    }
    return static_cast<std::uint64_t>(versions.front());
  });
}

}  // namespace codepayload::auth
