// The registry's people: their records, roles and the errors of the account
// store; the store's interface.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/audit_log.h"
#include "accounts/credential_source.h"
#include "accounts/session_manager.h"
#include "auth/unix_clock.h"

namespace codepayload::accounts {

enum class Role { Owner, Developer, Viewer };

// "owner", "developer", "viewer", and the exact-match parser.
std::string_view roleName(Role role);
std::optional<Role> parseRole(std::string_view name);

inline constexpr std::string_view kUserIdPrefix = "usr_";
inline constexpr std::string_view kOperatorIdPrefix = "opr_";
inline constexpr std::size_t kAccountIdRandomLength = 16;  // base62 characters

struct UserRecord {
  std::string id;
  std::string organizationId;
  std::string email;  // as given
  Role role = Role::Viewer;
  bool totpEnabled = false;
  std::int64_t createdAt = 0;

  bool operator==(const UserRecord&) const = default;
};

struct OperatorRecord {
  std::string id;
  std::string email;
  bool totpEnabled = false;
  std::int64_t createdAt = 0;

  bool operator==(const OperatorRecord&) const = default;
};

// A pending reset of a user's password, found by its code's digest.
struct PasswordReset {
  std::string userId;
  std::string organizationId;
  std::int64_t expiresAt = 0;

  bool operator==(const PasswordReset&) const = default;
};

class AccountError : public std::runtime_error {
 public:
  enum class Kind { InvalidValue, EmailTaken, UnknownOrganization, UnknownAccount, Storage };
  AccountError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// What the registry keeps of people (organization users and operators),
// their TOTP secrets and recovery codes, their sessions, and the audit log.
// It is the CredentialSource of sign-in and the SessionStore of the session
// manager. Every change is one transaction that also appends its audit
// record, so a change is never without its record nor a record without its
// change. Implementations are thread-safe. SqlAccountStore
// (accounts/sql_account_store.h) implements it; app/registry.h opens one.
class AccountStore : public CredentialSource, public SessionStore {
 public:
  ~AccountStore() override = default;

  // A new user of `organizationId`; `passwordHash` is a PHC string from
  // PasswordHasher (the caller checked the password policy). It takes the
  // place of the organization's user placeholder with that email, if any.
  // Audited as "user.create". Throws AccountError: InvalidValue (email, hash),
  // EmailTaken (by a user or an operator), UnknownOrganization, Storage.
  virtual UserRecord createUser(std::string_view organizationId, std::string_view email, Role role,
                                std::string_view passwordHash, const AuditContext& audit) = 0;
  // A new user of `organizationId` added by one of its owners, who must not
  // learn whether the email has an account elsewhere in the installation: an
  // email that a user of another organization or an operator has is not
  // refused but kept as a user placeholder (db/registry/0008), listed like a
  // user who has not signed in yet and audited alike; it is no account.
  // Throws AccountError: InvalidValue, EmailTaken (only when the organization
  // lists the email already), UnknownOrganization, Storage.
  virtual UserRecord createUserWithoutDisclosure(std::string_view organizationId, std::string_view email, Role role,
                                                 std::string_view passwordHash, const AuditContext& audit) = 0;
  // A new operator; audited as "operator.create". Same errors but UnknownOrganization.
  virtual OperatorRecord createOperator(std::string_view email, std::string_view passwordHash,
                                        const AuditContext& audit) = 0;

  virtual std::optional<UserRecord> findUser(std::string_view userId) = 0;
  // A user or a user placeholder, as listUsers shows it.
  virtual std::optional<UserRecord> findListedUser(std::string_view userId) = 0;
  // The organization's users and user placeholders, oldest first.
  virtual std::vector<UserRecord> listUsers(std::string_view organizationId) = 0;
  virtual std::optional<OperatorRecord> findOperator(std::string_view operatorId) = 0;
  // The user whose email is `email` compared as emailKey() compares it; never
  // a user placeholder (it is no account) nor an operator.
  virtual std::optional<UserRecord> findUserByEmail(std::string_view email) = 0;
  // Every user of every organization, or of `organizationId` alone, without
  // the user placeholders; by organization id, then emailKey() of the email,
  // in byte order on either database.
  virtual std::vector<UserRecord> listUserAccounts(std::optional<std::string_view> organizationId) = 0;

  // Removes a user (its sessions and recovery codes go with it) or a user
  // placeholder. Audited as "user.delete". Throws AccountError:
  // UnknownAccount, InvalidValue (the organization's last owner), Storage.
  virtual void deleteUser(std::string_view userId, const AuditContext& audit) = 0;

  // Gives a user `role`. Audited as "user.set-role" ("email=E role=OLD->NEW").
  // Throws AccountError: UnknownAccount, InvalidValue (it would leave the
  // organization without an owner), Storage.
  virtual void setRole(std::string_view userId, Role role, const AuditContext& audit) = 0;
  // Replaces a user's password hash (a PHC string from PasswordHasher; the
  // caller checked the policy), clears a pending reset (startPasswordReset),
  // and ends every session of the user; returns how many ended. Audited as
  // "user.reset-password" ("email=E sessions=N"). Throws AccountError:
  // UnknownAccount, InvalidValue (the hash), Storage.
  virtual std::size_t resetPassword(std::string_view userId, std::string_view passwordHash,
                                    const AuditContext& audit) = 0;
  // An owner's reset of a user's password, which the user completes: keeps
  // `codeDigest` (resetCodeDigest of a one-time code) until `expiresAt` in
  // place of any earlier code, from when on the current password no longer
  // signs in (Credentials::passwordResetPending), and ends every session of
  // the user; returns how many ended. A user placeholder is recorded alike and
  // nothing is kept (its owner must not learn that it is no account). Audited
  // as "user.reset-password" ("email=E sessions=N"). Throws AccountError:
  // UnknownAccount, InvalidValue (the digest), Storage.
  virtual std::size_t startPasswordReset(std::string_view userId, std::string_view codeDigest, std::int64_t expiresAt,
                                         const AuditContext& audit) = 0;
  // The pending reset whose code has `codeDigest`, expired or not.
  virtual std::optional<PasswordReset> findPasswordReset(std::string_view codeDigest) = 0;
  // Completes the reset whose code has `codeDigest` when that code has not
  // expired at the store's clock: `passwordHash` becomes the user's password
  // and the code is gone. False, changing nothing, when there is no such code
  // (used, replaced) or it expired. Audited as "account.complete-reset"
  // ("email=E") with the user's email as actor and `audit`'s address. Throws
  // AccountError: InvalidValue (the hash), Storage.
  virtual bool completePasswordReset(std::string_view codeDigest, std::string_view passwordHash,
                                     const AuditContext& audit) = 0;
  // The account's own change of its password (a user or an operator): stores
  // `passwordHash` (the caller checked the current password and the policy),
  // clears a pending reset, and ends every session of the account but the one
  // whose id has `keptSessionDigest`; returns how many ended. Audited as
  // "account.change-password" ("sessions=N"). Throws AccountError:
  // UnknownAccount, InvalidValue (the hash), Storage.
  virtual std::size_t changePassword(std::string_view principalId, std::string_view passwordHash,
                                     std::string_view keptSessionDigest, const AuditContext& audit) = 0;

  // Whether the organization requires its users to sign in with TOTP (false
  // until set). Audited as "org.require-totp" ("required=true|false").
  // Throws AccountError: UnknownOrganization, Storage.
  virtual bool requiresTotp(std::string_view organizationId) = 0;
  virtual void setRequireTotp(std::string_view organizationId, bool required, const AuditContext& audit) = 0;

  // Removes the sessions idle for more than `idleSeconds` or past their
  // absolute end at `now` (the background sweep); returns how many.
  virtual std::size_t removeEndedSessions(std::int64_t now, std::int64_t idleSeconds) = 0;

  // Turns TOTP on with `secret` (raw bytes); `confirmedStep` is the step of
  // the code that confirmed the enrolment, kept as the last accepted step, so
  // that code is not accepted again (RFC 6238 section 5.2), nor any older one.
  // Audited as "account.totp-enable". Throws AccountError(UnknownAccount).
  virtual void enableTotp(std::string_view principalId, std::string_view secret, std::int64_t confirmedStep,
                          const AuditContext& audit) = 0;
  // Turns TOTP off, removing the secret, its last step and the recovery
  // codes. Audited as "account.totp-disable". Throws AccountError(UnknownAccount).
  virtual void disableTotp(std::string_view principalId, const AuditContext& audit) = 0;
  // Replaces the account's recovery codes by `digests`
  // (recoveryCodeDigest); audited as "account.recovery-codes".
  virtual void replaceRecoveryCodes(std::string_view principalId, const std::vector<std::string>& digests,
                                    const AuditContext& audit) = 0;
  virtual std::size_t recoveryCodesLeft(std::string_view principalId) = 0;

  // Appends one record on its own (a refused or failed change; a sign-in).
  virtual void appendAudit(const AuditRecord& record) = 0;
  virtual std::vector<AuditRecord> readAudit(const AuditQuery& query) = 0;
  // readAudit with what the registry still knows of each record's target.
  virtual std::vector<AuditEntry> readAuditEntries(const AuditQuery& query) = 0;
};

}  // namespace codepayload::accounts
