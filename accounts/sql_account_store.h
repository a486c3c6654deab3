// The account store on Poco::Data, over SQLite or PostgreSQL: the same registry as
// auth::SqlClientRegistry, with its own connection (schema
// db/registry/0003_accounts.sql). Thread-safe (one connection behind a mutex).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/account_store.h"
#include "auth/registry_database.h"
#include "auth/unix_clock.h"

namespace codepayload::accounts {

class SqlAccountStore final : public AccountStore {
 public:
  // Opens `database` (an SQLite file is created when absent) and applies
  // the migrations in `registryMigrations`. Throws AccountError(Storage).
  SqlAccountStore(const auth::RegistryDatabase& database, const std::filesystem::path& registryMigrations,
                  auth::UnixClock clock = auth::systemUnixSeconds);
  ~SqlAccountStore() override;

  SqlAccountStore(const SqlAccountStore&) = delete;
  SqlAccountStore& operator=(const SqlAccountStore&) = delete;

  // AccountStore
  UserRecord createUser(std::string_view organizationId, std::string_view email, Role role,
                        std::string_view passwordHash, const AuditContext& audit) override;
  UserRecord createUserWithoutDisclosure(std::string_view organizationId, std::string_view email, Role role,
                                         std::string_view passwordHash, const AuditContext& audit) override;
  OperatorRecord createOperator(std::string_view email, std::string_view passwordHash,
                                const AuditContext& audit) override;
  std::optional<UserRecord> findUser(std::string_view userId) override;
  std::optional<UserRecord> findListedUser(std::string_view userId) override;
  std::vector<UserRecord> listUsers(std::string_view organizationId) override;
  std::optional<OperatorRecord> findOperator(std::string_view operatorId) override;
  std::optional<UserRecord> findUserByEmail(std::string_view email) override;
  std::vector<UserRecord> listUserAccounts(std::optional<std::string_view> organizationId) override;
  void deleteUser(std::string_view userId, const AuditContext& audit) override;
  void setRole(std::string_view userId, Role role, const AuditContext& audit) override;
  std::size_t resetPassword(std::string_view userId, std::string_view passwordHash, const AuditContext& audit) override;
  std::size_t startPasswordReset(std::string_view userId, std::string_view codeDigest, std::int64_t expiresAt,
                                 const AuditContext& audit) override;
  std::optional<PasswordReset> findPasswordReset(std::string_view codeDigest) override;
  bool completePasswordReset(std::string_view codeDigest, std::string_view passwordHash,
                             const AuditContext& audit) override;
  std::size_t changePassword(std::string_view principalId, std::string_view passwordHash,
                             std::string_view keptSessionDigest, const AuditContext& audit) override;
  bool requiresTotp(std::string_view organizationId) override;
  void setRequireTotp(std::string_view organizationId, bool required, const AuditContext& audit) override;
  std::size_t removeEndedSessions(std::int64_t now, std::int64_t idleSeconds) override;
  void enableTotp(std::string_view principalId, std::string_view secret, std::int64_t confirmedStep,
                  const AuditContext& audit) override;
  void disableTotp(std::string_view principalId, const AuditContext& audit) override;
  void replaceRecoveryCodes(std::string_view principalId, const std::vector<std::string>& digests,
                            const AuditContext& audit) override;
  std::size_t recoveryCodesLeft(std::string_view principalId) override;
  void appendAudit(const AuditRecord& record) override;
  std::vector<AuditRecord> readAudit(const AuditQuery& query) override;
  std::vector<AuditEntry> readAuditEntries(const AuditQuery& query) override;

  // CredentialSource
  std::optional<Credentials> findCredentials(std::string_view emailKey) override;
  bool recordTotpStep(std::string_view principalId, std::int64_t step) override;
  bool useRecoveryCode(std::string_view principalId, std::string_view digest) override;
  void replacePasswordHash(std::string_view principalId, std::string_view passwordHash) override;

  // SessionStore
  void insertSession(const StoredSession& session) override;
  std::optional<StoredSession> findSession(std::string_view idDigest) override;
  void touchSession(std::string_view idDigest, std::int64_t lastSeenAt) override;
  void removeSession(std::string_view idDigest) override;
  std::size_t removeSessionsOf(std::string_view principalId) override;

 private:
  // What becomes of an email that already has an account elsewhere.
  enum class EmailElsewhere { Refuse, Placeholder };
  UserRecord addUser(std::string_view organizationId, std::string_view email, Role role, std::string_view passwordHash,
                     const AuditContext& audit, EmailElsewhere elsewhere);
  // The users (never placeholders) that `condition` selects (an SQL tail, " WHERE ...", or ""), with
  // `value` bound as $1 when given.
  std::vector<UserRecord> usersWhere(std::string_view what, const std::string& condition,
                                     const std::optional<std::string>& value);
  // Stores the TOTP secret (base32) and its last step, both NULL to turn TOTP
  // off, in one audited transaction.
  void changeTotp(std::string_view principalId, const std::optional<std::string>& encodedSecret,
                  std::optional<std::int64_t> lastStep, const AuditContext& audit);

  struct Connection;
  std::unique_ptr<Connection> connection_;
  auth::UnixClock clock_;
};

}  // namespace codepayload::accounts
