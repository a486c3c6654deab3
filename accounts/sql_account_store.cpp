#include "accounts/sql_account_store.h"

#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/Exception.h>
#include <Poco/Nullable.h>

#include <algorithm>
#include <initializer_list>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "accounts/base32.h"
#include "accounts/email_address.h"
#include "auth/random_strings.h"
#include "auth/registry_database.h"
#include "db/poco_migrations.h"

namespace codepayload::accounts {

namespace {

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

// The table of a user's or an operator's rows, and the column other tables
// name it by; from the id's prefix.
struct PrincipalTable {
  std::string table;
  std::string column;
};

const PrincipalTable kUsers{"users", "user_id"};
const PrincipalTable kOperators{"operators", "operator_id"};

PrincipalTable principalTable(std::string_view principalId) {
  if (principalId.substr(0, kUserIdPrefix.size()) == kUserIdPrefix) return kUsers;
  if (principalId.substr(0, kOperatorIdPrefix.size()) == kOperatorIdPrefix) return kOperators;
  throw AccountError(AccountError::Kind::UnknownAccount, "no account with id \"" + std::string(principalId) + "\"");
}

Role roleFromColumn(const std::string& text) {
  const std::optional<Role> role = parseRole(text);
  if (!role)
    throw AccountError(AccountError::Kind::Storage, "registry database holds an unknown role \"" + text + "\"");
  return *role;
}

void checkPasswordHash(std::string_view passwordHash) {
  if (passwordHash.substr(0, 10) != "$argon2id$") {
    throw AccountError(AccountError::Kind::InvalidValue, "the password hash is not an Argon2id PHC string");
  }
}

void checkNewAccount(std::string_view email, std::string_view passwordHash) {
  if (const std::optional<std::string> problem = emailProblem(email)) {
    throw AccountError(AccountError::Kind::InvalidValue, *problem);
  }
  checkPasswordHash(passwordHash);
}

// What a change of a user reads first: its organization, email and role.
struct UserRow {
  std::string organization;
  std::string email;
  std::string role;
};

// Stores a new password hash of a user or an operator, inside the caller's
// transaction; a user's pending reset (startPasswordReset) ends with the old
// password. Returns the rows changed: 0 when there is no such account.
std::size_t storePasswordHash(Poco::Data::Session& session, const PrincipalTable& where, std::string_view principalId,
                              std::string_view passwordHash, std::int64_t changedAt) {
  Poco::Data::Statement update(session);
  update << "UPDATE " + where.table + " SET password_hash = $1, updated_at = $2" +
                (where.table == kUsers.table ? ", reset_code_digest = NULL, reset_expires_at = NULL" : "") +
                " WHERE id = $3",
      bind(std::string(passwordHash)), bind(Poco::Int64{changedAt}), bind(std::string(principalId));
  return update.execute();
}

// Ends the sessions of a user or an operator inside the caller's transaction,
// all of them but the one whose id has `keptDigest` (none kept when empty:
// no session id has an empty digest). Returns how many ended.
std::size_t endSessionsOf(Poco::Data::Session& session, const PrincipalTable& where, std::string_view principalId,
                          std::string_view keptDigest = {}) {
  Poco::Data::Statement end(session);
  end << "DELETE FROM sessions WHERE " + where.column + " = $1 AND id_digest <> $2", bind(std::string(principalId)),
      bind(std::string(keptDigest));
  return end.execute();
}

// Runs `work` under the connection's lock; database faults become AccountError(Storage).
template <typename Locked, typename Work>
auto guarded(Locked& connection, std::string_view what, Work&& work) -> decltype(work()) {
  return auth::guardedRegistryWork<AccountError>(connection.mutex, connection.session, what, AccountError::Kind::Storage,
                                                 std::forward<Work>(work));
}

}  // namespace

struct SqlAccountStore::Connection {
  explicit Connection(Poco::Data::Session opened) : session(std::move(opened)) {}

  std::mutex mutex;
  Poco::Data::Session session;

  // Refuses `emailKey` when a user or an operator has it (inside the
  // caller's write transaction).
  void checkEmailFree(const std::string& emailKey, std::string_view email) {
    Poco::Int64 users = 0;
    Poco::Int64 operators = 0;
    session << "SELECT count(*) FROM users WHERE email_key = $1", bind(emailKey), into(users), now;
    session << "SELECT count(*) FROM operators WHERE email_key = $1", bind(emailKey), into(operators), now;
    if (users + operators > 0) {
      throw AccountError(AccountError::Kind::EmailTaken,
                         "the email address " + std::string(email) + " already has an account");
    }
  }

  // Whether a user of any organization or an operator has `emailKey`.
  bool emailHasAccount(const std::string& emailKey) {
    Poco::Int64 users = 0;
    Poco::Int64 operators = 0;
    session << "SELECT count(*) FROM users WHERE email_key = $1", bind(emailKey), into(users), now;
    session << "SELECT count(*) FROM operators WHERE email_key = $1", bind(emailKey), into(operators), now;
    return users + operators > 0;
  }

  // Refuses `emailKey` when the organization lists it already, as a user or a
  // user placeholder (what its owners see; nothing about other organizations).
  void checkNotListed(const std::string& organizationId, const std::string& emailKey, std::string_view email) {
    Poco::Int64 users = 0;
    Poco::Int64 placeholders = 0;
    session << "SELECT count(*) FROM users WHERE organization_id = $1 AND email_key = $2", bind(organizationId),
        bind(emailKey), into(users), now;
    session << "SELECT count(*) FROM user_placeholders WHERE organization_id = $1 AND email_key = $2",
        bind(organizationId), bind(emailKey), into(placeholders), now;
    if (users + placeholders > 0) {
      throw AccountError(AccountError::Kind::EmailTaken,
                         "the email address " + std::string(email) + " is already a user of this organization");
    }
  }

  // A fresh id with `prefix` that none of `tables` holds.
  std::string newId(std::string_view prefix, std::initializer_list<std::string_view> tables) {
    for (;;) {
      std::string id = std::string(prefix) + auth::randomBase62(kAccountIdRandomLength);
      Poco::Int64 taken = 0;
      for (const std::string_view table : tables) {
        Poco::Int64 count = 0;
        session << "SELECT count(*) FROM " + std::string(table) + " WHERE id = $1", bind(id), into(count), now;
        taken += count;
      }
      if (taken == 0) return id;
    }
  }

  // The row of `id` in `table` (users or user_placeholders), if any.
  std::optional<UserRow> userRow(const std::string& table, std::string_view id) {
    UserRow row;
    Poco::Data::Statement find(session);
    find << "SELECT organization_id, email, role FROM " + table + " WHERE id = $1", bind(std::string(id)),
        into(row.organization), into(row.email), into(row.role);
    if (find.execute() == 0) return std::nullopt;
    return row;
  }

  // The row of user `id`; throws AccountError(UnknownAccount) when there is none.
  UserRow existingUser(std::string_view id) {
    std::optional<UserRow> row = userRow("users", id);
    if (!row) throw AccountError(AccountError::Kind::UnknownAccount, "no user with id \"" + std::string(id) + "\"");
    return std::move(*row);
  }

  // Refuses with `refusal` when the organization has no owner but the one a
  // change would remove or demote (inside the caller's write transaction).
  void checkAnotherOwner(const std::string& organization, const std::string& refusal) {
    Poco::Int64 owners = 0;
    session << "SELECT count(*) FROM users WHERE organization_id = $1 AND role = 'owner'", bind(organization),
        into(owners), now;
    if (owners <= 1) throw AccountError(AccountError::Kind::InvalidValue, refusal);
  }

  void requireAccount(std::string_view principalId, const PrincipalTable& where) {
    Poco::Int64 found = 0;
    session << "SELECT count(*) FROM " + where.table + " WHERE id = $1", bind(std::string(principalId)), into(found),
        now;
    if (found == 0) {
      throw AccountError(AccountError::Kind::UnknownAccount, "no account with id \"" + std::string(principalId) + "\"");
    }
  }
};

SqlAccountStore::SqlAccountStore(const auth::RegistryDatabase& database,
                                 const std::filesystem::path& registryMigrations, auth::UnixClock clock)
    : clock_(std::move(clock)) {
  try {
    connection_ = std::make_unique<Connection>(auth::openMigratedRegistrySession(database, registryMigrations));
  } catch (const auth::RegistryOpenError& error) {
    throw AccountError(AccountError::Kind::Storage, error.what());
  }
}

SqlAccountStore::~SqlAccountStore() = default;

UserRecord SqlAccountStore::createUser(std::string_view organizationId, std::string_view email, Role role,
                                       std::string_view passwordHash, const AuditContext& audit) {
  return addUser(organizationId, email, role, passwordHash, audit, EmailElsewhere::Refuse);
}

UserRecord SqlAccountStore::createUserWithoutDisclosure(std::string_view organizationId, std::string_view email,
                                                        Role role, std::string_view passwordHash,
                                                        const AuditContext& audit) {
  return addUser(organizationId, email, role, passwordHash, audit, EmailElsewhere::Placeholder);
}

UserRecord SqlAccountStore::addUser(std::string_view organizationId, std::string_view email, Role role,
                                    std::string_view passwordHash, const AuditContext& audit,
                                    EmailElsewhere elsewhere) {
  checkNewAccount(email, passwordHash);
  return guarded(*connection_, "creating a user", [&] {
    Poco::Data::Session& session = connection_->session;
    auth::WriteTransaction transaction(session);
    Poco::Int64 organizations = 0;
    session << "SELECT count(*) FROM organizations WHERE id = $1", bind(std::string(organizationId)),
        into(organizations), now;
    if (organizations == 0) {
      throw AccountError(AccountError::Kind::UnknownOrganization,
                         "no organization with id \"" + std::string(organizationId) + "\"");
    }
    const std::string key = emailKey(email);
    UserRecord user{connection_->newId(kUserIdPrefix, {"users", "user_placeholders"}),
                    std::string(organizationId),
                    std::string(email),
                    role,
                    false,
                    clock_()};
    bool placeholder = false;
    if (elsewhere == EmailElsewhere::Placeholder) {
      connection_->checkNotListed(user.organizationId, key, email);
      placeholder = connection_->emailHasAccount(key);
    } else {
      connection_->checkEmailFree(key, email);
    }
    if (placeholder) {
      session << "INSERT INTO user_placeholders (id, organization_id, email, email_key, role, created_at)"
                 " VALUES ($1, $2, $3, $4, $5, $6)",
          bind(user.id), bind(user.organizationId), bind(user.email), bind(key), bind(std::string(roleName(role))),
          bind(Poco::Int64{user.createdAt}), now;
    } else {
      session << "DELETE FROM user_placeholders WHERE organization_id = $1 AND email_key = $2",
          bind(user.organizationId), bind(key), now;
      session
          << "INSERT INTO users (id, organization_id, email, email_key, role, password_hash, created_at, updated_at)"
             " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
          bind(user.id), bind(user.organizationId), bind(user.email), bind(key), bind(std::string(roleName(role))),
          bind(std::string(passwordHash)), bind(Poco::Int64{user.createdAt}), bind(Poco::Int64{user.createdAt}), now;
    }
    // One record for both: the organization's log must not tell them apart.
    appendAuditRecord(
        session, AuditRecord{0, user.createdAt, audit.actor, "user.create", user.id, user.organizationId, audit.address,
                             AuditResult::Success, "email=" + user.email + " role=" + std::string(roleName(role))});
    transaction.commit();
    return user;
  });
}

OperatorRecord SqlAccountStore::createOperator(std::string_view email, std::string_view passwordHash,
                                               const AuditContext& audit) {
  checkNewAccount(email, passwordHash);
  return guarded(*connection_, "creating an operator", [&] {
    Poco::Data::Session& session = connection_->session;
    auth::WriteTransaction transaction(session);
    const std::string key = emailKey(email);
    connection_->checkEmailFree(key, email);
    OperatorRecord created{connection_->newId(kOperatorIdPrefix, {"operators"}), std::string(email), false, clock_()};
    session << "INSERT INTO operators (id, email, email_key, password_hash, created_at, updated_at)"
               " VALUES ($1, $2, $3, $4, $5, $6)",
        bind(created.id), bind(created.email), bind(key), bind(std::string(passwordHash)),
        bind(Poco::Int64{created.createdAt}), bind(Poco::Int64{created.createdAt}), now;
    appendAuditRecord(session, AuditRecord{0, created.createdAt, audit.actor, "operator.create", created.id, "",
                                           audit.address, AuditResult::Success, "email=" + created.email});
    transaction.commit();
    return created;
  });
}

namespace {

std::vector<UserRecord> usersFromRows(const std::vector<std::string>& ids,
                                      const std::vector<std::string>& organizations,
                                      const std::vector<std::string>& emails, const std::vector<std::string>& roles,
                                      const std::vector<Poco::Nullable<std::string>>& secrets,
                                      const std::vector<Poco::Int64>& created) {
  std::vector<UserRecord> users;
  users.reserve(ids.size());
  for (std::size_t row = 0; row < ids.size(); ++row) {
    users.push_back(UserRecord{ids[row], organizations[row], emails[row], roleFromColumn(roles[row]),
                               !secrets[row].isNull(), created[row]});
  }
  return users;
}

constexpr const char* kUserColumns = "SELECT id, organization_id, email, role, totp_secret, created_at FROM users";
// The users and the user placeholders as an organization's owners see them; a
// placeholder has no TOTP.
constexpr const char* kListedUsers =
    "SELECT id, organization_id, email, role, totp_secret, created_at FROM users WHERE {where}"
    " UNION ALL SELECT id, organization_id, email, role, NULL, created_at FROM user_placeholders WHERE {where}"
    " ORDER BY created_at, id";

std::string listedUsersWhere(std::string_view condition) {
  std::string sql = kListedUsers;
  for (std::size_t at = sql.find("{where}"); at != std::string::npos; at = sql.find("{where}", at)) {
    sql.replace(at, 7, condition);
  }
  return sql;
}

}  // namespace

std::vector<UserRecord> SqlAccountStore::usersWhere(std::string_view what, const std::string& condition,
                                                    const std::optional<std::string>& value) {
  return guarded(*connection_, what, [&] {
    std::vector<std::string> ids, organizations, emails, roles;
    std::vector<Poco::Nullable<std::string>> secrets;
    std::vector<Poco::Int64> created;
    Poco::Data::Statement select(connection_->session);
    select << std::string(kUserColumns) + condition, into(ids), into(organizations), into(emails), into(roles),
        into(secrets), into(created);
    if (value) select.addBind(bind(*value));
    select.execute();
    return usersFromRows(ids, organizations, emails, roles, secrets, created);
  });
}

std::optional<UserRecord> SqlAccountStore::findUser(std::string_view userId) {
  std::vector<UserRecord> users = usersWhere("reading a user", " WHERE id = $1", std::string(userId));
  if (users.empty()) return std::nullopt;
  return std::move(users.front());
}

std::optional<UserRecord> SqlAccountStore::findUserByEmail(std::string_view email) {
  std::vector<UserRecord> users = usersWhere("reading a user", " WHERE email_key = $1", emailKey(email));
  if (users.empty()) return std::nullopt;
  return std::move(users.front());
}

std::vector<UserRecord> SqlAccountStore::listUserAccounts(std::optional<std::string_view> organizationId) {
  std::vector<UserRecord> users =
      organizationId ? usersWhere("listing users", " WHERE organization_id = $1", std::string(*organizationId))
                     : usersWhere("listing users", "", std::nullopt);
  // Sorted here, not by ORDER BY: PostgreSQL compares text by its database's
  // collation, which need not be byte order, and both databases must agree.
  std::sort(users.begin(), users.end(), [](const UserRecord& left, const UserRecord& right) {
    return std::forward_as_tuple(left.organizationId, emailKey(left.email)) <
           std::forward_as_tuple(right.organizationId, emailKey(right.email));
  });
  return users;
}

std::optional<UserRecord> SqlAccountStore::findListedUser(std::string_view userId) {
  return guarded(*connection_, "reading a user", [&]() -> std::optional<UserRecord> {
    std::vector<std::string> ids, organizations, emails, roles;
    std::vector<Poco::Nullable<std::string>> secrets;
    std::vector<Poco::Int64> created;
    const std::string id(userId);
    connection_->session << listedUsersWhere("id = $1"), bind(id), into(ids), into(organizations), into(emails),
        into(roles), into(secrets), into(created), now;
    std::vector<UserRecord> users = usersFromRows(ids, organizations, emails, roles, secrets, created);
    if (users.empty()) return std::nullopt;
    return std::move(users.front());
  });
}

std::vector<UserRecord> SqlAccountStore::listUsers(std::string_view organizationId) {
  return guarded(*connection_, "listing users", [&] {
    std::vector<std::string> ids, organizations, emails, roles;
    std::vector<Poco::Nullable<std::string>> secrets;
    std::vector<Poco::Int64> created;
    const std::string organization(organizationId);
    connection_->session << listedUsersWhere("organization_id = $1"), bind(organization), into(ids),
        into(organizations), into(emails), into(roles), into(secrets), into(created), now;
    return usersFromRows(ids, organizations, emails, roles, secrets, created);
  });
}

std::optional<OperatorRecord> SqlAccountStore::findOperator(std::string_view operatorId) {
  return guarded(*connection_, "reading an operator", [&]() -> std::optional<OperatorRecord> {
    std::vector<std::string> ids, emails;
    std::vector<Poco::Nullable<std::string>> secrets;
    std::vector<Poco::Int64> created;
    connection_->session << "SELECT id, email, totp_secret, created_at FROM operators WHERE id = $1",
        bind(std::string(operatorId)), into(ids), into(emails), into(secrets), into(created), now;
    if (ids.empty()) return std::nullopt;
    return OperatorRecord{ids[0], emails[0], !secrets[0].isNull(), created[0]};
  });
}

void SqlAccountStore::enableTotp(std::string_view principalId, std::string_view secret, std::int64_t confirmedStep,
                                 const AuditContext& audit) {
  changeTotp(principalId, encodeBase32(secret), confirmedStep, audit);
}

void SqlAccountStore::disableTotp(std::string_view principalId, const AuditContext& audit) {
  changeTotp(principalId, std::nullopt, std::nullopt, audit);
}

void SqlAccountStore::changeTotp(std::string_view principalId, const std::optional<std::string>& encodedSecret,
                                 std::optional<std::int64_t> lastStep, const AuditContext& audit) {
  const PrincipalTable where = principalTable(principalId);
  guarded(*connection_, "changing a second factor", [&] {
    Poco::Data::Session& session = connection_->session;
    auth::WriteTransaction transaction(session);
    connection_->requireAccount(principalId, where);
    const std::int64_t changedAt = clock_();
    Poco::Nullable<std::string> storedSecret;
    if (encodedSecret) storedSecret = *encodedSecret;
    Poco::Nullable<Poco::Int64> storedStep;
    if (lastStep) storedStep = Poco::Int64{*lastStep};
    session << "UPDATE " + where.table + " SET totp_secret = $1, totp_last_step = $2, updated_at = $3 WHERE id = $4",
        bind(storedSecret), bind(storedStep), bind(Poco::Int64{changedAt}), bind(std::string(principalId)), now;
    const bool enabled = encodedSecret.has_value();
    if (!enabled) {
      session << "DELETE FROM recovery_codes WHERE " + where.column + " = $1", bind(std::string(principalId)), now;
    }
    std::string organization;
    if (where.table == "users") {
      session << "SELECT organization_id FROM users WHERE id = $1", bind(std::string(principalId)), into(organization),
          now;
    }
    appendAuditRecord(session,
                      AuditRecord{0, changedAt, audit.actor, enabled ? "account.totp-enable" : "account.totp-disable",
                                  std::string(principalId), organization, audit.address, AuditResult::Success, ""});
    transaction.commit();
  });
}

void SqlAccountStore::replaceRecoveryCodes(std::string_view principalId, const std::vector<std::string>& digests,
                                           const AuditContext& audit) {
  const PrincipalTable where = principalTable(principalId);
  guarded(*connection_, "replacing recovery codes", [&] {
    Poco::Data::Session& session = connection_->session;
    auth::WriteTransaction transaction(session);
    connection_->requireAccount(principalId, where);
    const std::int64_t changedAt = clock_();
    session << "DELETE FROM recovery_codes WHERE " + where.column + " = $1", bind(std::string(principalId)), now;
    for (const std::string& digest : digests) {
      session << "INSERT INTO recovery_codes (code_digest, " + where.column + ", created_at) VALUES ($1, $2, $3)",
          bind(digest), bind(std::string(principalId)), bind(Poco::Int64{changedAt}), now;
    }
    std::string organization;
    if (where.table == "users") {
      session << "SELECT organization_id FROM users WHERE id = $1", bind(std::string(principalId)), into(organization),
          now;
    }
    appendAuditRecord(session, AuditRecord{0, changedAt, audit.actor, "account.recovery-codes",
                                           std::string(principalId), organization, audit.address, AuditResult::Success,
                                           "count=" + std::to_string(digests.size())});
    transaction.commit();
  });
}

std::size_t SqlAccountStore::recoveryCodesLeft(std::string_view principalId) {
  const PrincipalTable where = principalTable(principalId);
  return guarded(*connection_, "counting recovery codes", [&] {
    Poco::Int64 count = 0;
    connection_->session << "SELECT count(*) FROM recovery_codes WHERE " + where.column + " = $1",
        bind(std::string(principalId)), into(count), now;
    return static_cast<std::size_t>(count);
  });
}

void SqlAccountStore::appendAudit(const AuditRecord& record) {
  guarded(*connection_, "appending to the audit log", [&] {
    auth::WriteTransaction transaction(connection_->session);
    appendAuditRecord(connection_->session, record);
    transaction.commit();
  });
}

std::vector<AuditRecord> SqlAccountStore::readAudit(const AuditQuery& query) {
  return guarded(*connection_, "reading the audit log",
                 [&] { return readAuditRecords(connection_->session, query); });
}

std::vector<AuditEntry> SqlAccountStore::readAuditEntries(const AuditQuery& query) {
  return guarded(*connection_, "reading the audit log",
                 [&] { return accounts::readAuditEntries(connection_->session, query); });
}

std::optional<Credentials> SqlAccountStore::findCredentials(std::string_view emailKey) {
  return guarded(*connection_, "reading an account", [&]() -> std::optional<Credentials> {
    for (const char* table : {"users", "operators"}) {
      std::vector<std::string> ids, hashes;
      std::vector<Poco::Nullable<std::string>> secrets;
      std::vector<Poco::Nullable<Poco::Int64>> steps;
      std::vector<Poco::Int64> resets;
      // Operators have no reset: an owner resets the users of an organization.
      const std::string reset =
          table == std::string_view("users") ? "CASE WHEN reset_code_digest IS NULL THEN 0 ELSE 1 END" : "0";
      connection_->session << "SELECT id, password_hash, totp_secret, totp_last_step, " + reset + " FROM " +
                                  std::string(table) + " WHERE email_key = $1",
          bind(std::string(emailKey)), into(ids), into(hashes), into(secrets), into(steps), into(resets), now;
      if (ids.empty()) continue;
      Credentials credentials{ids[0], hashes[0], std::nullopt, std::nullopt, resets[0] != 0};
      if (!secrets[0].isNull()) {
        std::optional<std::string> secret = decodeBase32(secrets[0].value());
        if (!secret) {
          throw AccountError(AccountError::Kind::Storage, "registry database holds a TOTP secret that is not base32");
        }
        credentials.totpSecret = std::move(secret);
      }
      if (!steps[0].isNull()) credentials.lastTotpStep = steps[0].value();
      return credentials;
    }
    return std::nullopt;
  });
}

bool SqlAccountStore::recordTotpStep(std::string_view principalId, std::int64_t step) {
  const PrincipalTable where = principalTable(principalId);
  return guarded(*connection_, "recording a TOTP step", [&] {
    Poco::Data::Statement statement(connection_->session);
    statement << "UPDATE " + where.table +
                     " SET totp_last_step = $1 WHERE id = $2 AND totp_secret IS NOT NULL"
                     " AND (totp_last_step IS NULL OR totp_last_step < $3)",
        bind(Poco::Int64{step}), bind(std::string(principalId)), bind(Poco::Int64{step});
    return statement.execute() == 1;
  });
}

bool SqlAccountStore::useRecoveryCode(std::string_view principalId, std::string_view digest) {
  const PrincipalTable where = principalTable(principalId);
  return guarded(*connection_, "using a recovery code", [&] {
    Poco::Data::Statement statement(connection_->session);
    statement << "DELETE FROM recovery_codes WHERE code_digest = $1 AND " + where.column + " = $2",
        bind(std::string(digest)), bind(std::string(principalId));
    return statement.execute() == 1;
  });
}

void SqlAccountStore::replacePasswordHash(std::string_view principalId, std::string_view passwordHash) {
  const PrincipalTable where = principalTable(principalId);
  guarded(*connection_, "replacing a password hash", [&] {
    connection_->session << "UPDATE " + where.table + " SET password_hash = $1, updated_at = $2 WHERE id = $3",
        bind(std::string(passwordHash)), bind(Poco::Int64{clock_()}), bind(std::string(principalId)), now;
  });
}

void SqlAccountStore::insertSession(const StoredSession& stored) {
  const PrincipalTable where = principalTable(stored.principalId);
  guarded(*connection_, "starting a session", [&] {
    connection_->session << "INSERT INTO sessions (id_digest, " + where.column +
                                ", created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
        bind(stored.idDigest), bind(stored.principalId), bind(Poco::Int64{stored.createdAt}),
        bind(Poco::Int64{stored.lastSeenAt}), bind(Poco::Int64{stored.expiresAt}), now;
  });
}

std::optional<StoredSession> SqlAccountStore::findSession(std::string_view idDigest) {
  return guarded(*connection_, "reading a session", [&]() -> std::optional<StoredSession> {
    std::vector<std::string> digests;
    std::vector<Poco::Nullable<std::string>> users, operators;
    std::vector<Poco::Int64> created, lastSeen, expires;
    connection_->session << "SELECT id_digest, user_id, operator_id, created_at, last_seen_at, expires_at"
                            " FROM sessions WHERE id_digest = $1",
        bind(std::string(idDigest)), into(digests), into(users), into(operators), into(created), into(lastSeen),
        into(expires), now;
    if (digests.empty()) return std::nullopt;
    return StoredSession{digests[0], users[0].isNull() ? operators[0].value() : users[0].value(), created[0],
                         lastSeen[0], expires[0]};
  });
}

void SqlAccountStore::touchSession(std::string_view idDigest, std::int64_t lastSeenAt) {
  guarded(*connection_, "recording a session's activity", [&] {
    connection_->session << "UPDATE sessions SET last_seen_at = $1 WHERE id_digest = $2", bind(Poco::Int64{lastSeenAt}),
        bind(std::string(idDigest)), now;
  });
}

void SqlAccountStore::removeSession(std::string_view idDigest) {
  guarded(*connection_, "ending a session", [&] {
    connection_->session << "DELETE FROM sessions WHERE id_digest = $1", bind(std::string(idDigest)), now;
  });
}

std::size_t SqlAccountStore::removeSessionsOf(std::string_view principalId) {
  const PrincipalTable where = principalTable(principalId);
  return guarded(*connection_, "ending sessions",
                 [&] { return endSessionsOf(connection_->session, where, principalId); });
}

void SqlAccountStore::deleteUser(std::string_view userId, const AuditContext& audit) {
  guarded(*connection_, "removing a user", [&] {
    Poco::Data::Session& session = connection_->session;
    auth::WriteTransaction transaction(session);
    std::optional<UserRow> row = connection_->userRow("users", userId);
    // A placeholder is removed like a user, and recorded alike; it never counts as an owner.
    const std::string table = row ? "users" : "user_placeholders";
    if (!row) row = connection_->userRow(table, userId);
    if (!row) throw AccountError(AccountError::Kind::UnknownAccount, "no user with id \"" + std::string(userId) + "\"");
    if (table == "users" && row->role == roleName(Role::Owner)) {
      connection_->checkAnotherOwner(row->organization,
                                     "the organization's last owner cannot be removed; make another user owner first");
    }
    session << "DELETE FROM " + table + " WHERE id = $1", bind(std::string(userId)), now;
    appendAuditRecord(session,
                      AuditRecord{0, clock_(), audit.actor, "user.delete", std::string(userId), row->organization,
                                  audit.address, AuditResult::Success, "email=" + row->email + " role=" + row->role});
    transaction.commit();
  });
}

void SqlAccountStore::setRole(std::string_view userId, Role role, const AuditContext& audit) {
  guarded(*connection_, "changing a user's role", [&] {
    Poco::Data::Session& session = connection_->session;
    auth::WriteTransaction transaction(session);
    const UserRow row = connection_->existingUser(userId);
    const std::string newRole(roleName(role));
    if (row.role == roleName(Role::Owner) && role != Role::Owner) {
      connection_->checkAnotherOwner(row.organization, "the organization's last owner cannot become " + newRole +
                                                           "; make another user owner first");
    }
    const std::int64_t changedAt = clock_();
    session << "UPDATE users SET role = $1, updated_at = $2 WHERE id = $3", bind(newRole), bind(Poco::Int64{changedAt}),
        bind(std::string(userId)), now;
    appendAuditRecord(session, AuditRecord{0, changedAt, audit.actor, "user.set-role", std::string(userId),
                                           row.organization, audit.address, AuditResult::Success,
                                           "email=" + row.email + " role=" + row.role + "->" + newRole});
    transaction.commit();
  });
}

std::size_t SqlAccountStore::resetPassword(std::string_view userId, std::string_view passwordHash,
                                           const AuditContext& audit) {
  checkPasswordHash(passwordHash);
  return guarded(*connection_, "resetting a password", [&] {
    Poco::Data::Session& session = connection_->session;
    auth::WriteTransaction transaction(session);
    const UserRow row = connection_->existingUser(userId);
    const std::int64_t changedAt = clock_();
    storePasswordHash(session, kUsers, userId, passwordHash, changedAt);
    const std::size_t ended = endSessionsOf(session, kUsers, userId);
    appendAuditRecord(session, AuditRecord{0, changedAt, audit.actor, "user.reset-password", std::string(userId),
                                           row.organization, audit.address, AuditResult::Success,
                                           "email=" + row.email + " sessions=" + std::to_string(ended)});
    transaction.commit();
    return ended;
  });
}

std::size_t SqlAccountStore::startPasswordReset(std::string_view userId, std::string_view codeDigest,
                                                std::int64_t expiresAt, const AuditContext& audit) {
  if (codeDigest.size() != 64)
    throw AccountError(AccountError::Kind::InvalidValue, "the reset code digest is not 64 hex digits");
  return guarded(*connection_, "resetting a password", [&] {
    Poco::Data::Session& session = connection_->session;
    auth::WriteTransaction transaction(session);
    std::optional<UserRow> row = connection_->userRow("users", userId);
    std::size_t ended = 0;
    const std::int64_t changedAt = clock_();
    if (row) {
      session << "UPDATE users SET reset_code_digest = $1, reset_expires_at = $2, updated_at = $3 WHERE id = $4",
          bind(std::string(codeDigest)), bind(Poco::Int64{expiresAt}), bind(Poco::Int64{changedAt}),
          bind(std::string(userId)), now;
      ended = endSessionsOf(session, kUsers, userId);
    } else {
      row = connection_->userRow("user_placeholders", userId);
      if (!row)
        throw AccountError(AccountError::Kind::UnknownAccount, "no user with id \"" + std::string(userId) + "\"");
    }
    appendAuditRecord(session, AuditRecord{0, changedAt, audit.actor, "user.reset-password", std::string(userId),
                                           row->organization, audit.address, AuditResult::Success,
                                           "email=" + row->email + " sessions=" + std::to_string(ended)});
    transaction.commit();
    return ended;
  });
}

std::optional<PasswordReset> SqlAccountStore::findPasswordReset(std::string_view codeDigest) {
  return guarded(*connection_, "reading a password reset", [&]() -> std::optional<PasswordReset> {
    PasswordReset reset;
    Poco::Int64 expiresAt = 0;
    Poco::Data::Statement find(connection_->session);
    find << "SELECT id, organization_id, reset_expires_at FROM users WHERE reset_code_digest = $1",
        bind(std::string(codeDigest)), into(reset.userId), into(reset.organizationId), into(expiresAt);
    if (find.execute() == 0) return std::nullopt;
    reset.expiresAt = expiresAt;
    return reset;
  });
}

bool SqlAccountStore::completePasswordReset(std::string_view codeDigest, std::string_view passwordHash,
                                            const AuditContext& audit) {
  checkPasswordHash(passwordHash);
  return guarded(*connection_, "completing a password reset", [&] {
    Poco::Data::Session& session = connection_->session;
    auth::WriteTransaction transaction(session);
    const std::int64_t changedAt = clock_();
    std::string userId, organization, email;
    Poco::Data::Statement find(session);
    find << "SELECT id, organization_id, email FROM users WHERE reset_code_digest = $1 AND reset_expires_at > $2",
        bind(std::string(codeDigest)), bind(Poco::Int64{changedAt}), into(userId), into(organization), into(email);
    if (find.execute() == 0) return false;
    storePasswordHash(session, kUsers, userId, passwordHash, changedAt);
    appendAuditRecord(session, AuditRecord{0, changedAt, email, "account.complete-reset", userId, organization,
                                           audit.address, AuditResult::Success, "email=" + email});
    transaction.commit();
    return true;
  });
}

std::size_t SqlAccountStore::changePassword(std::string_view principalId, std::string_view passwordHash,
                                            std::string_view keptSessionDigest, const AuditContext& audit) {
  checkPasswordHash(passwordHash);
  const PrincipalTable where = principalTable(principalId);
  return guarded(*connection_, "changing a password", [&] {
    Poco::Data::Session& session = connection_->session;
    auth::WriteTransaction transaction(session);
    const std::int64_t changedAt = clock_();
    std::string organization;
    if (where.table == kUsers.table) organization = connection_->existingUser(principalId).organization;
    if (storePasswordHash(session, where, principalId, passwordHash, changedAt) == 0) {
      throw AccountError(AccountError::Kind::UnknownAccount, "no account with id \"" + std::string(principalId) + "\"");
    }
    const std::size_t ended = endSessionsOf(session, where, principalId, keptSessionDigest);
    appendAuditRecord(
        session, AuditRecord{0, changedAt, audit.actor, "account.change-password", std::string(principalId),
                             organization, audit.address, AuditResult::Success, "sessions=" + std::to_string(ended)});
    transaction.commit();
    return ended;
  });
}

bool SqlAccountStore::requiresTotp(std::string_view organizationId) {
  return guarded(*connection_, "reading an organization's settings", [&] {
    Poco::Int64 required = 0;
    connection_->session
        << "SELECT count(*) FROM organization_settings WHERE organization_id = $1 AND require_totp = 1",
        bind(std::string(organizationId)), into(required), now;
    return required > 0;
  });
}

void SqlAccountStore::setRequireTotp(std::string_view organizationId, bool required, const AuditContext& audit) {
  guarded(*connection_, "changing an organization's settings", [&] {
    Poco::Data::Session& session = connection_->session;
    auth::WriteTransaction transaction(session);
    Poco::Int64 known = 0;
    session << "SELECT count(*) FROM organizations WHERE id = $1", bind(std::string(organizationId)), into(known), now;
    if (known == 0) {
      throw AccountError(AccountError::Kind::UnknownOrganization,
                         "no organization with id \"" + std::string(organizationId) + "\"");
    }
    const std::int64_t changedAt = clock_();
    Poco::Data::Statement update(session);
    update << "UPDATE organization_settings SET require_totp = $1, updated_at = $2 WHERE organization_id = $3",
        bind(Poco::Int64{required ? 1 : 0}), bind(Poco::Int64{changedAt}), bind(std::string(organizationId));
    if (update.execute() == 0) {
      session << "INSERT INTO organization_settings (organization_id, require_totp, updated_at) VALUES ($1, $2, $3)",
          bind(std::string(organizationId)), bind(Poco::Int64{required ? 1 : 0}), bind(Poco::Int64{changedAt}), now;
    }
    appendAuditRecord(session, AuditRecord{0, changedAt, audit.actor, "org.require-totp", std::string(organizationId),
                                           std::string(organizationId), audit.address, AuditResult::Success,
                                           required ? "required=true" : "required=false"});
    transaction.commit();
  });
}

std::size_t SqlAccountStore::removeEndedSessions(std::int64_t at, std::int64_t idleSeconds) {
  return guarded(*connection_, "removing ended sessions", [&] {
    Poco::Data::Statement statement(connection_->session);
    statement << "DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at + $2 <= $3", bind(Poco::Int64{at}),
        bind(Poco::Int64{idleSeconds}), bind(Poco::Int64{at});
    return statement.execute();
  });
}

}  // namespace codepayload::accounts
