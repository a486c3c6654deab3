// The one interface the rest of the service uses for organizations, their
// plans and subscriptions, and API clients. SqlClientRegistry implements it;
// a PostgreSQL registry can be added without touching handlers or token logic.
//
// Every mutating call is one transaction: after a crash there is a complete
// change or none. Client ids are never reused: a deleted client stays as a
// tombstone.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "auth/secret_hasher.h"

namespace codepayload::auth {

enum class Plan { Free, Starter, Pro, Enterprise };
enum class Subscription { Active, Inactive };
enum class ClientState { Active, Blocked, Deleted };

// Stable lower-case names ("free", "starter", "pro", "enterprise"; "active",
// "inactive"; "active", "blocked", "deleted") and their parsers (exact match).
std::string_view planName(Plan plan);
std::optional<Plan> parsePlan(std::string_view name);
std::string_view subscriptionName(Subscription subscription);
std::optional<Subscription> parseSubscription(std::string_view name);
std::string_view clientStateName(ClientState state);

// Whether an organization may create and use API clients, and if not why:
// they need an active subscription on Starter or a higher plan. The one rule
// behind the token endpoint's refusal, the plan gate and what the dashboard
// tells the organization's users; an inactive subscription is named first.
enum class ApiClientCoverage { Covered, SubscriptionInactive, PlanExcludesClients };
ApiClientCoverage apiClientCoverage(Plan plan, Subscription subscription);
// apiClientCoverage(plan, subscription) == Covered.
bool coversApiClients(Plan plan, Subscription subscription);

inline constexpr std::string_view kClientIdPrefix = "svc_client_";
inline constexpr std::size_t kClientIdRandomLength = 24;  // base62 characters
inline constexpr std::string_view kOrganizationIdPrefix = "org_";
inline constexpr std::size_t kOrganizationIdRandomLength = 16;  // base62 characters

// True when `id` has the exact shape of an id this registry issues
// (prefix + the right number of [0-9A-Za-z]). Cheap; lets callers refuse
// garbage before it reaches the database.
bool isWellFormedClientId(std::string_view id);
bool isWellFormedOrganizationId(std::string_view id);

// True for a valid scope token (RFC 6749 §3.3: 1*( %x21 / %x23-5B / %x5D-7E )),
// at most 64 characters.
bool isValidScope(std::string_view scope);

// Scopes as one space-delimited string (RFC 6749 §3.3; the `scope` claim).
std::string joinScopes(const std::vector<std::string>& scopes);

// Reads a scope list (RFC 6749 §3.3: scope-token *( SP scope-token ), the
// `scope` parameter and claim): calls onScope for each token, in order, and
// returns true; returns false, at the first entry that is not a valid scope
// token (isValidScope), when it is not one. A leading, trailing or doubled
// space makes an empty entry, so the empty list is not a scope list either.
bool forEachScopeInList(std::string_view list, const std::function<void(std::string_view scope)>& onScope);

struct Organization {
  std::string id;
  std::string name;
  Plan plan = Plan::Free;
  Subscription subscription = Subscription::Active;
  std::int64_t createdAt = 0;  // Unix seconds

  bool operator==(const Organization&) const = default;
};

struct ClientRecord {
  std::string id;
  std::string organizationId;
  std::string name;
  std::vector<std::string> scopes;  // in the order given at creation
  ClientState state = ClientState::Active;
  std::int64_t createdAt = 0;  // Unix seconds
  // Who created it, as the creator's caller named it: "cli:<login>" for the
  // admin CLI, the user's email for the dashboard; "" for a client created
  // before this was recorded.
  std::string createdBy;
  // When it was last used (a token issued or a /codes request answered), Unix
  // seconds truncated to the minute; nullopt while never used. Written in the
  // background (auth/usage_service.h), so it lags by up to usage.flushInterval.
  std::optional<std::int64_t> lastUsedAt;
  // The client this one was made to replace (replaceClient), and the client
  // made to replace this one: they share a name and scopes, and these tell
  // them apart. nullopt when there is none, and once the other is deleted.
  std::optional<std::string> replaces;
  std::optional<std::string> replacedBy;

  bool operator==(const ClientRecord&) const = default;
};

// The result of createClient: the only time the secret exists outside the
// caller's hands. Show it once; it cannot be retrieved later.
struct CreatedClient {
  ClientRecord client;
  std::string secret;  // 32 random bytes, base64url (43 characters)
};

// What the token endpoint needs to authenticate and authorise a client, read
// in one round trip; also one row of the in-memory view (auth/registry_view.h)
// that the bearer check and the token endpoint answer from.
struct ClientAuthRecord {
  std::string clientId;
  std::string organizationId;
  ClientState state = ClientState::Active;
  std::vector<std::string> scopes;
  SecretDigest secretDigest{};  // all zero for a deleted client
  bool organizationCoversApiClients = false;
  // Tokens of this client issued (iat) before this time are revoked: blocking
  // sets it to the second after the block, and unblocking leaves it. 0 when
  // the client was never blocked. Unix seconds.
  std::int64_t tokensNotBefore = 0;

  bool operator==(const ClientAuthRecord&) const = default;
};

class RegistryError : public std::runtime_error {
 public:
  enum class Kind {
    UnknownOrganization,  // no organization with that id
    UnknownClient,        // no client with that id
    ClientDeleted,        // the client is deleted; nothing can change it any more
    PlanExcludesClients,  // createClient on an organization whose plan/subscription does not cover API clients
    AlreadyReplaced,      // replaceClient on a client that another client replaces already
    InvalidValue,         // a name, scope or id with a bad shape
    Storage,              // the database failed (I/O, corruption, lock timeout)
  };

  RegistryError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const noexcept { return kind_; }

 private:
  Kind kind_;
};

class ClientRegistry {
 public:
  virtual ~ClientRegistry() = default;

  // A new organization with an active subscription on `plan`. `name`: 1 to 200
  // bytes, no control characters, no bidirectional controls (common/bidi_controls.h).
  virtual Organization createOrganization(std::string_view name, Plan plan) = 0;
  virtual void setPlan(std::string_view organizationId, Plan plan) = 0;
  virtual void setSubscription(std::string_view organizationId, Subscription subscription) = 0;
  virtual std::optional<Organization> findOrganization(std::string_view organizationId) = 0;
  virtual std::vector<Organization> listOrganizations() = 0;  // in creation order

  // Creates an active client with a fresh id and secret. Refused
  // (PlanExcludesClients) unless the organization has an active Starter-or-higher
  // plan. `name`: 0 to 200 bytes, no control characters, no bidirectional
  // controls (common/bidi_controls.h). `scopes`: one or more
  // distinct scopes the server knows (auth/known_scopes.h; at most 32), else
  // InvalidValue with newClientScopesProblem's message (D-U9). Clients stored
  // before that rule keep the scopes they have. `createdBy`: who creates it
  // (kept in ClientRecord::createdBy), 0 to 300 bytes, no control characters.
  virtual CreatedClient createClient(std::string_view organizationId, std::string_view name,
                                     const std::vector<std::string>& scopes, std::string_view createdBy) = 0;
  // A new active client with the name, scopes and organization of `clientId`,
  // a fresh id and secret, that records which client it replaces (its
  // ClientRecord::replaces; the old one's replacedBy): the old client keeps
  // working until it is deleted, so callers move to the new one first.
  // Refused as createClient is, and: UnknownClient, ClientDeleted, or
  // AlreadyReplaced while another client that is not deleted replaces it.
  virtual CreatedClient replaceClient(std::string_view clientId, std::string_view createdBy) = 0;
  // Clients of one organization, deleted ones included, in creation order.
  // Throws UnknownOrganization.
  virtual std::vector<ClientRecord> listClients(std::string_view organizationId) = 0;
  virtual std::optional<ClientRecord> findClient(std::string_view clientId) = 0;

  // block: active|blocked -> blocked; unblock: active|blocked -> active;
  // delete: active|blocked -> deleted (the stored digest is wiped, and the
  // replacement link to and from the client removed on both sides). Any change
  // to a deleted client throws ClientDeleted; an unknown id UnknownClient.
  // Blocking an active client also moves its tokensNotBefore to the second
  // after now, so every token issued until then stays revoked after an unblock.
  virtual void setClientState(std::string_view clientId, ClientState state) = 0;

  // One read for the token endpoint; nullopt for an unknown id. An unknown
  // id must cost what a known one does (the token endpoint's failure paths
  // are timed alike: bench/token_failure_timing.cpp).
  virtual std::optional<ClientAuthRecord> findClientForAuthentication(std::string_view clientId) = 0;

  // Every client that is not deleted, for the in-memory view.
  virtual std::vector<ClientAuthRecord> listClientsForAuthentication() = 0;

  // Changes whenever a row of listClientsForAuthentication may have changed (a
  // client created, blocked, unblocked or deleted, its scopes or secret digest
  // rewritten, an organization's plan or subscription), through this object or
  // any other process; other writes (usage and last use, names, accounts,
  // sessions, the audit log) leave it. Cheap enough to poll several times a
  // second. Compare for equality only.
  virtual std::uint64_t version() = 0;
};

}  // namespace codepayload::auth
