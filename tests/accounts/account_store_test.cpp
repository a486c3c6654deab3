#include "accounts/sql_account_store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "accounts/password_hasher.h"
#include "accounts/password_reset_codes.h"
#include "accounts/recovery_codes.h"
#include "accounts/session_manager.h"
#include "accounts/sign_in.h"
#include "accounts/totp.h"
#include "memory_stores.h"
#include "scratch_registry.h"
#include "tests/support/scratch_registry.h"

namespace codepayload::accounts {
namespace {

using codepayload::testing::rawColumn;
using codepayload::testing::rawSql;
using testing::FakeClock;
using testing::kTestEpoch;
using testing::ScratchDir;
using testing::sourceRegistryMigrations;

constexpr std::string_view kHash =
    "$argon2id$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$gy5SuVm5Z7Vw7keB9se9p87QGcomaseB/S2U1OhTsM0";
const AuditContext kCli{"cli:tester", "local"};

class AccountStoreTest : public ::testing::Test {
 protected:
  AccountStoreTest()
      : hasher_(std::string(32, 'p')),
        database_(codepayload::testing::freshRegistryDatabase(dir_.path())),
        registry_(database_, sourceRegistryMigrations(), hasher_, clock_.clock()),
        store_(database_, sourceRegistryMigrations(), clock_.clock()),
        organization_(registry_.createOrganization("Acme GmbH", auth::Plan::Starter).id) {}

  const auth::RegistryDatabase& database() const { return database_; }
  bool onPostgresql() const { return database_.kind == auth::RegistryDatabase::Kind::Postgresql; }

  AccountError::Kind errorOf(const std::function<void()>& call, std::string& message) {
    try {
      call();
    } catch (const AccountError& error) {
      message = error.what();
      return error.kind();
    }
    message = "no error";
    return AccountError::Kind::Storage;
  }

  ScratchDir dir_;
  FakeClock clock_;
  auth::SecretHasher hasher_;
  auth::RegistryDatabase database_;
  auth::SqlClientRegistry registry_;
  SqlAccountStore store_;
  std::string organization_;
};

TEST_F(AccountStoreTest, CreatesUsersAndOperatorsWithTheirAuditRecords) {
  const UserRecord ana = store_.createUser(organization_, "Ana@Example.com", Role::Owner, kHash, kCli);
  EXPECT_EQ(ana.id.substr(0, 4), "usr_");
  EXPECT_EQ(ana.id.size(), 20u);
  EXPECT_EQ(ana, (UserRecord{ana.id, organization_, "Ana@Example.com", Role::Owner, false, kTestEpoch}));
  clock_.advance(10);
  const UserRecord bob = store_.createUser(organization_, "bob@example.com", Role::Viewer, kHash, kCli);
  const OperatorRecord olga = store_.createOperator("olga@example.net", kHash, {"cli:root", "local"});
  EXPECT_EQ(olga.id.substr(0, 4), "opr_");
  EXPECT_EQ(olga, (OperatorRecord{olga.id, "olga@example.net", false, kTestEpoch + 10}));
  EXPECT_EQ(store_.listUsers(organization_), (std::vector<UserRecord>{ana, bob}));
  EXPECT_EQ(store_.findUser(bob.id), bob);
  EXPECT_EQ(store_.findUser("usr_0000000000000000"), std::nullopt);
  EXPECT_EQ(store_.findOperator(olga.id), olga);
  EXPECT_EQ(store_.readAudit({}), (std::vector<AuditRecord>{
                                      {3, kTestEpoch + 10, "cli:root", "operator.create", olga.id, "", "local",
                                       AuditResult::Success, "email=olga@example.net"},
                                      {2, kTestEpoch + 10, "cli:tester", "user.create", bob.id, organization_, "local",
                                       AuditResult::Success, "email=bob@example.com role=viewer"},
                                      {1, kTestEpoch, "cli:tester", "user.create", ana.id, organization_, "local",
                                       AuditResult::Success, "email=Ana@Example.com role=owner"},
                                  }));
}

TEST_F(AccountStoreTest, EmailsAreUniqueIgnoringAsciiCaseAcrossUsersAndOperators) {
  store_.createUser(organization_, "Ana@Example.com", Role::Owner, kHash, kCli);
  std::string message;
  EXPECT_EQ(errorOf([&] { store_.createUser(organization_, "ana@example.COM", Role::Viewer, kHash, kCli); }, message),
            AccountError::Kind::EmailTaken);
  EXPECT_EQ(message, "the email address ana@example.COM already has an account");
  EXPECT_EQ(errorOf([&] { store_.createOperator("ANA@example.com", kHash, kCli); }, message),
            AccountError::Kind::EmailTaken);
  store_.createOperator("olga@example.net", kHash, kCli);
  EXPECT_EQ(errorOf([&] { store_.createUser(organization_, "Olga@Example.net", Role::Owner, kHash, kCli); }, message),
            AccountError::Kind::EmailTaken);
  EXPECT_EQ(message, "the email address Olga@Example.net already has an account");
  // Nothing half-written: one user, one operator, two records.
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM users"), "1");
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM operators"), "1");
  EXPECT_EQ(rawColumn(database(), "SELECT action FROM audit_log ORDER BY id"), "user.create|operator.create");
  // The schema itself refuses a second row with the same key.
  EXPECT_EQ(rawSql(database(),
                   "INSERT INTO users (id, organization_id, email, email_key, role, password_hash, created_at,"
                   " updated_at) VALUES ('usr_AAAAAAAAAAAAAAAA', '" +
                       organization_ + "', 'a@b.co', 'ana@example.com', 'owner', '$argon2id$x', 0, 0)"),
            onPostgresql() ? "duplicate key value violates unique constraint \"users_email_key_key\""
                           : "UNIQUE constraint failed: users.email_key");
}

TEST_F(AccountStoreTest, AnOwnersNewUserWithAnAccountElsewhereIsAPlaceholderListedAlike) {
  const std::string other = registry_.createOrganization("Other", auth::Plan::Pro).id;
  const UserRecord bob = store_.createUser(other, "bob@example.com", Role::Owner, kHash, kCli);
  store_.createOperator("olga@example.net", kHash, kCli);
  const AuditContext owner{"owner@acme.example", "192.0.2.1"};
  clock_.advance(1);
  const UserRecord created =
      store_.createUserWithoutDisclosure(organization_, "carl@example.com", Role::Viewer, kHash, owner);
  clock_.advance(1);
  const UserRecord elsewhere =
      store_.createUserWithoutDisclosure(organization_, "Bob@Example.com", Role::Developer, kHash, owner);
  clock_.advance(1);
  const UserRecord anOperator =
      store_.createUserWithoutDisclosure(organization_, "olga@example.net", Role::Owner, kHash, owner);
  // The answer, the listing and the organization's audit log are alike for all three.
  EXPECT_EQ(elsewhere,
            (UserRecord{elsewhere.id, organization_, "Bob@Example.com", Role::Developer, false, kTestEpoch + 2}));
  EXPECT_EQ(elsewhere.id.substr(0, 4), "usr_");
  EXPECT_EQ(elsewhere.id.size(), 20u);
  EXPECT_EQ(store_.listUsers(organization_), (std::vector<UserRecord>{created, elsewhere, anOperator}));
  EXPECT_EQ(store_.findListedUser(elsewhere.id), elsewhere);
  EXPECT_EQ(store_.findListedUser(created.id), created);
  std::vector<std::string> records;
  for (const AuditRecord& record : store_.readAudit(AuditQuery{organization_, std::nullopt, 10})) {
    records.push_back(record.actor + " " + record.action + " " + record.target + " " +
                      std::string(auditResultName(record.result)) + " " + record.detail);
  }
  EXPECT_EQ(records,
            (std::vector<std::string>{
                "owner@acme.example user.create " + anOperator.id + " success email=olga@example.net role=owner",
                "owner@acme.example user.create " + elsewhere.id + " success email=Bob@Example.com role=developer",
                "owner@acme.example user.create " + created.id + " success email=carl@example.com role=viewer"}));
  // Only the first is an account; the others leave the accounts they name as they were.
  EXPECT_EQ(store_.findUser(created.id), created);
  EXPECT_EQ(store_.findUser(elsewhere.id), std::nullopt);
  EXPECT_EQ(store_.findCredentials("bob@example.com")->principalId, bob.id);
  EXPECT_EQ(store_.findCredentials("olga@example.net")->principalId.substr(0, 4), "opr_");
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM user_placeholders"), "2");
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM users"), "2");

  // What the organization lists already is refused, in the same words whatever it is.
  std::string message;
  for (const std::string email : {"CARL@example.com", "bob@example.COM"}) {
    EXPECT_EQ(
        errorOf([&] { store_.createUserWithoutDisclosure(organization_, email, Role::Viewer, kHash, owner); }, message),
        AccountError::Kind::EmailTaken);
    EXPECT_EQ(message, "the email address " + email + " is already a user of this organization");
  }
  // The operator's tool still says what is true.
  EXPECT_EQ(errorOf([&] { store_.createUser(organization_, "bob@example.com", Role::Viewer, kHash, kCli); }, message),
            AccountError::Kind::EmailTaken);
  EXPECT_EQ(message, "the email address bob@example.com already has an account");

  // A placeholder is removed like a user, and recorded alike.
  store_.deleteUser(elsewhere.id, owner);
  EXPECT_EQ(store_.findListedUser(elsewhere.id), std::nullopt);
  EXPECT_EQ(store_.readAudit(AuditQuery{organization_, std::string("user.delete"), 1}).at(0).detail,
            "email=Bob@Example.com role=developer");
  EXPECT_EQ(errorOf([&] { store_.deleteUser(elsewhere.id, owner); }, message), AccountError::Kind::UnknownAccount);

  // Once the email is free, a real account in the organization takes the placeholder's place.
  const UserRecord dave = store_.createUser(other, "dave@example.com", Role::Viewer, kHash, kCli);
  const UserRecord daveHere =
      store_.createUserWithoutDisclosure(organization_, "dave@example.com", Role::Viewer, kHash, owner);
  EXPECT_EQ(store_.findUser(daveHere.id), std::nullopt);
  store_.deleteUser(dave.id, kCli);
  const UserRecord daveAccount = store_.createUser(organization_, "dave@example.com", Role::Viewer, kHash, kCli);
  // Listed by creation second, then by id (these may share a second).
  std::vector<UserRecord> expected{created, anOperator, daveAccount};
  std::sort(expected.begin(), expected.end(), [](const UserRecord& left, const UserRecord& right) {
    return std::tie(left.createdAt, left.id) < std::tie(right.createdAt, right.id);
  });
  EXPECT_EQ(store_.listUsers(organization_), expected);
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM user_placeholders"), "1");
}

TEST_F(AccountStoreTest, RefusesBadValuesAndUnknownOrganizations) {
  std::string message;
  EXPECT_EQ(errorOf([&] { store_.createUser("org_0000000000000000", "a@b.co", Role::Owner, kHash, kCli); }, message),
            AccountError::Kind::UnknownOrganization);
  EXPECT_EQ(message, "no organization with id \"org_0000000000000000\"");
  EXPECT_EQ(errorOf([&] { store_.createUser(organization_, "not-an-email", Role::Owner, kHash, kCli); }, message),
            AccountError::Kind::InvalidValue);
  EXPECT_EQ(message, "the email address must contain exactly one '@'");
  EXPECT_EQ(errorOf([&] { store_.createOperator("a@b.co", "plain password!", kCli); }, message),
            AccountError::Kind::InvalidValue);
  EXPECT_EQ(message, "the password hash is not an Argon2id PHC string");
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM audit_log"), "0");
  EXPECT_EQ(parseRole("developer"), Role::Developer);
  EXPECT_EQ(parseRole("Owner"), std::nullopt);
  EXPECT_EQ(roleName(Role::Viewer), "viewer");
}

TEST_F(AccountStoreTest, GivesSignInItsCredentialsAndKeepsEachTotpStepOnce) {
  const UserRecord ana = store_.createUser(organization_, "Ana@Example.com", Role::Owner, kHash, kCli);
  const OperatorRecord olga = store_.createOperator("olga@example.net", kHash, kCli);
  EXPECT_EQ(store_.findCredentials("ana@example.com"),
            (Credentials{ana.id, std::string(kHash), std::nullopt, std::nullopt}));
  EXPECT_EQ(store_.findCredentials("olga@example.net")->principalId, olga.id);
  EXPECT_EQ(store_.findCredentials("Ana@Example.com"), std::nullopt);  // the key, not the address
  EXPECT_EQ(store_.findCredentials("nobody@example.com"), std::nullopt);

  EXPECT_FALSE(store_.recordTotpStep(ana.id, 5));  // TOTP off
  // The step of the code that confirmed the enrolment is the last one used.
  store_.enableTotp(ana.id, "12345678901234567890", 99, kCli);
  EXPECT_EQ(rawColumn(database(), "SELECT totp_secret FROM users"), "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  EXPECT_TRUE(store_.findUser(ana.id)->totpEnabled);
  EXPECT_EQ(store_.findCredentials("ana@example.com")->totpSecret, "12345678901234567890");
  EXPECT_EQ(store_.findCredentials("ana@example.com")->lastTotpStep, 99);
  EXPECT_FALSE(store_.recordTotpStep(ana.id, 99));
  EXPECT_TRUE(store_.recordTotpStep(ana.id, 100));
  EXPECT_FALSE(store_.recordTotpStep(ana.id, 100));
  EXPECT_FALSE(store_.recordTotpStep(ana.id, 99));
  EXPECT_TRUE(store_.recordTotpStep(ana.id, 101));
  EXPECT_EQ(store_.findCredentials("ana@example.com")->lastTotpStep, 101);

  store_.replacePasswordHash(ana.id, "$argon2id$v=19$other");
  EXPECT_EQ(store_.findCredentials("ana@example.com")->passwordHash, "$argon2id$v=19$other");
  std::string message;
  EXPECT_EQ(errorOf([&] { store_.disableTotp("usr_0000000000000000", kCli); }, message),
            AccountError::Kind::UnknownAccount);
  EXPECT_EQ(message, "no account with id \"usr_0000000000000000\"");
  EXPECT_EQ(errorOf([&] { store_.enableTotp("usr_0000000000000000", "12345678901234567890", 1, kCli); }, message),
            AccountError::Kind::UnknownAccount);
  EXPECT_EQ(message, "no account with id \"usr_0000000000000000\"");
  EXPECT_EQ(errorOf([&] { store_.recordTotpStep("svc_client_x", 1); }, message), AccountError::Kind::UnknownAccount);
}

TEST_F(AccountStoreTest, RecoveryCodesAreUsedOnceAndGoWithTotp) {
  const UserRecord ana = store_.createUser(organization_, "ana@example.com", Role::Owner, kHash, kCli);
  store_.enableTotp(ana.id, "12345678901234567890", 1, kCli);
  const RecoveryCodes codes = newRecoveryCodes(3);
  store_.replaceRecoveryCodes(ana.id, codes.digests, kCli);
  EXPECT_EQ(store_.recoveryCodesLeft(ana.id), 3u);
  EXPECT_TRUE(store_.useRecoveryCode(ana.id, codes.digests[1]));
  EXPECT_FALSE(store_.useRecoveryCode(ana.id, codes.digests[1]));
  EXPECT_EQ(store_.recoveryCodesLeft(ana.id), 2u);
  const OperatorRecord olga = store_.createOperator("olga@example.net", kHash, kCli);
  EXPECT_FALSE(store_.useRecoveryCode(olga.id, codes.digests[0]));  // not hers
  // Only digests are stored.
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM recovery_codes WHERE code_digest = '" +
                                      *recoveryCodeDigest(codes.codes[0]) + "'"),
            "1");
  store_.disableTotp(ana.id, kCli);
  EXPECT_EQ(store_.recoveryCodesLeft(ana.id), 0u);
  EXPECT_FALSE(store_.findUser(ana.id)->totpEnabled);
  EXPECT_EQ(store_.findCredentials("ana@example.com"),
            (Credentials{ana.id, std::string(kHash), std::nullopt, std::nullopt}));
  EXPECT_EQ(rawColumn(database(),
                      "SELECT action || ' ' || target || ' ' || detail FROM audit_log"
                      " WHERE action LIKE 'account.%' ORDER BY id"),
            "account.totp-enable " + ana.id + " |account.recovery-codes " + ana.id + " count=3|account.totp-disable " +
                ana.id + " ");
}

TEST_F(AccountStoreTest, KeepsSessionsForTheSessionManager) {
  const UserRecord ana = store_.createUser(organization_, "ana@example.com", Role::Owner, kHash, kCli);
  const OperatorRecord olga = store_.createOperator("olga@example.net", kHash, kCli);
  SessionManager sessions(store_, SessionSettings{}, clock_.clock());
  const NewSession first = sessions.start(ana.id);
  const NewSession second = sessions.start(ana.id);
  const NewSession operatorSession = sessions.start(olga.id);
  EXPECT_EQ(store_.findSession(sessionIdDigest(first.id)),
            (StoredSession{sessionIdDigest(first.id), ana.id, kTestEpoch, kTestEpoch, kTestEpoch + 28800}));
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM sessions WHERE id_digest = '" + first.id + "'"), "0");
  clock_.advance(60);
  EXPECT_EQ(sessions.resume(operatorSession.id)->principalId, olga.id);
  EXPECT_EQ(store_.findSession(sessionIdDigest(operatorSession.id))->lastSeenAt, kTestEpoch + 60);
  EXPECT_EQ(sessions.endAllOf(ana.id), 2u);
  EXPECT_EQ(sessions.resume(first.id), std::nullopt);
  EXPECT_EQ(sessions.resume(second.id), std::nullopt);
  EXPECT_TRUE(sessions.resume(operatorSession.id));
  clock_.advance(1800);
  EXPECT_EQ(sessions.resume(operatorSession.id), std::nullopt);
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM sessions"), "0");
  // A session names exactly one account.
  EXPECT_EQ(rawSql(database(), "INSERT INTO sessions VALUES ('" + std::string(64, 'a') + "', NULL, NULL, 0, 0, 0)"),
            onPostgresql() ? "new row for relation \"sessions\" violates check constraint \"sessions_check\""
                           : "CHECK constraint failed: (user_id IS NULL) <> (operator_id IS NULL)");
}

TEST_F(AccountStoreTest, SignInRunsOnTheStore) {
  const PasswordHasher hasher;
  const UserRecord ana = store_.createUser(organization_, "ana@example.com", Role::Developer,
                                           hasher.hash("correct horse battery staple"), kCli);
  SessionManager sessions(store_, SessionSettings{}, clock_.clock());
  PasswordCheck passwords(store_, hasher, PasswordThrottleSettings{}, clock_.clock());
  SignInService signIn(store_, passwords, sessions, SignInSettings{}, clock_.clock());
  const SignInResult result =
      signIn.signIn(SignInAttempt{"ANA@example.com", "correct horse battery staple", {}, "192.0.2.1", {}});
  ASSERT_EQ(result.outcome, SignInResult::Outcome::SignedIn);
  EXPECT_EQ(sessions.resume(result.session->id)->principalId, ana.id);
  EXPECT_EQ(signIn.signIn(SignInAttempt{"ana@example.com", "wrong password!!", {}, "192.0.2.1", {}}).outcome,
            SignInResult::Outcome::Refused);
}

TEST_F(AccountStoreTest, TheCodeThatConfirmedTheEnrolmentIsRefusedAtSignIn) {
  const PasswordHasher hasher;
  const UserRecord ana = store_.createUser(organization_, "ana@example.com", Role::Developer,
                                           hasher.hash("correct horse battery staple"), kCli);
  SessionManager sessions(store_, SessionSettings{}, clock_.clock());
  PasswordCheck passwords(store_, hasher, PasswordThrottleSettings{}, clock_.clock());
  SignInService signIn(store_, passwords, sessions, SignInSettings{}, clock_.clock());
  const std::string secret = "12345678901234567890";
  const std::string confirming = totpCode(secret, clock_.now());
  // What the enrolment's confirmation does: the code's step goes in with the secret.
  const std::optional<std::int64_t> step = acceptTotp(secret, confirming, clock_.now(), std::nullopt);
  ASSERT_TRUE(step);
  store_.enableTotp(ana.id, secret, *step, kCli);
  const auto attempt = [&](const std::string& code) {
    return signIn.signIn(SignInAttempt{"ana@example.com", "correct horse battery staple", code, "192.0.2.1", {}});
  };
  EXPECT_EQ(attempt(confirming).outcome, SignInResult::Outcome::Refused);
  // Nor the code of the step before it, still inside the window.
  EXPECT_EQ(attempt(totpCode(secret, clock_.now() - 30)).outcome, SignInResult::Outcome::Refused);
  clock_.advance(30);
  EXPECT_EQ(attempt(totpCode(secret, clock_.now())).outcome, SignInResult::Outcome::SignedIn);
  EXPECT_EQ(store_.findCredentials("ana@example.com")->lastTotpStep, *step + 1);
}

TEST_F(AccountStoreTest, TheAuditLogIsAppendOnlyAndFiltered) {
  store_.createUser(organization_, "ana@example.com", Role::Owner, kHash, kCli);
  const std::string other = registry_.createOrganization("Other", auth::Plan::Pro).id;
  clock_.advance(5);
  store_.appendAudit(AuditRecord{0, clock_.now(), "cli:tester", "client.create", "", other, "local",
                                 AuditResult::Refused, "the plan excludes API clients"});
  store_.createOperator("olga@example.net", kHash, kCli);
  EXPECT_EQ(store_.readAudit(AuditQuery{other, std::nullopt, 100}),
            (std::vector<AuditRecord>{{2, kTestEpoch + 5, "cli:tester", "client.create", "", other, "local",
                                       AuditResult::Refused, "the plan excludes API clients"}}));
  const std::vector<AuditRecord> newestFirst = store_.readAudit(AuditQuery{std::nullopt, std::nullopt, 2});
  ASSERT_EQ(newestFirst.size(), 2u);
  EXPECT_EQ(newestFirst[0].action, "operator.create");
  EXPECT_EQ(newestFirst[0].organizationId, "");
  EXPECT_EQ(newestFirst[1].id, 2);
  EXPECT_EQ(store_.readAudit(AuditQuery{std::nullopt, "user.create", 100}).size(), 1u);
  EXPECT_EQ(rawSql(database(), "UPDATE audit_log SET actor = 'someone else'"), "audit_log is append-only");
  EXPECT_EQ(rawSql(database(), "DELETE FROM audit_log"), "audit_log is append-only");
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM audit_log"), "3");
  // No password hash in the log.
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM audit_log WHERE detail LIKE '%argon2%'"), "0");
}

// The action filter is a prefix, alike on SQLite (whose LIKE ignores ASCII
// case) and PostgreSQL (whose LIKE does not), with LIKE's own characters
// taken as themselves.
TEST_F(AccountStoreTest, TheAuditLogIsFilteredByHowActionsBegin) {
  for (const char* action : {"account.sign-in", "account.sign-out", "account.totp-enable", "client.create",
                             "client.block", "clients_x", "client%"}) {
    store_.appendAudit(
        AuditRecord{0, clock_.now(), "cli:tester", action, "", organization_, "local", AuditResult::Success, ""});
  }
  const auto actionsOf = [&](const std::string& prefix) {
    std::vector<std::string> actions;
    for (const AuditRecord& record : store_.readAudit(AuditQuery{organization_, prefix, 100})) {
      actions.push_back(record.action);
    }
    return actions;
  };
  EXPECT_EQ(actionsOf("account.sign"), (std::vector<std::string>{"account.sign-out", "account.sign-in"}));
  EXPECT_EQ(actionsOf("client"), (std::vector<std::string>{"client%", "clients_x", "client.block", "client.create"}));
  EXPECT_EQ(actionsOf("Client."), (std::vector<std::string>{"client.block", "client.create"}));
  EXPECT_EQ(actionsOf("client.create"), (std::vector<std::string>{"client.create"}));
  EXPECT_EQ(actionsOf("client_"), (std::vector<std::string>{}));
  EXPECT_EQ(actionsOf("client%"), (std::vector<std::string>{"client%"}));
  EXPECT_EQ(actionsOf("clients_"), (std::vector<std::string>{"clients_x"}));
  EXPECT_EQ(actionsOf("%"), (std::vector<std::string>{}));
  EXPECT_EQ(actionsOf("\\"), (std::vector<std::string>{}));
  EXPECT_EQ(actionsOf("account.sign-in.more"), (std::vector<std::string>{}));
}

// Each record comes with its target's email or name while the registry still
// knows the target.
TEST_F(AccountStoreTest, AuditEntriesNameTheirTargets) {
  const UserRecord ana = store_.createUser(organization_, "ana@example.com", Role::Owner, kHash, kCli);
  const UserRecord bob = store_.createUser(organization_, "bob@example.com", Role::Viewer, kHash, kCli);
  const OperatorRecord olga = store_.createOperator("olga@example.net", kHash, kCli);
  const std::string client =
      registry_.createClient(organization_, "Label printer", {"write:codes"}, "cli:tester").client.id;
  store_.appendAudit(AuditRecord{0, clock_.now(), "cli:tester", "client.create", client, organization_, "local",
                                 AuditResult::Success, ""});
  store_.deleteUser(bob.id, kCli);
  using Named = std::tuple<std::string, std::string, std::optional<std::string>, std::optional<std::string>>;
  std::vector<Named> seen;
  for (const AuditEntry& entry : store_.readAuditEntries(AuditQuery{std::nullopt, std::nullopt, 100})) {
    seen.emplace_back(entry.record.action, entry.record.target, entry.targetEmail, entry.targetName);
  }
  EXPECT_EQ(seen, (std::vector<Named>{{"user.delete", bob.id, std::nullopt, std::nullopt},
                                      {"client.create", client, std::nullopt, "Label printer"},
                                      {"operator.create", olga.id, "olga@example.net", std::nullopt},
                                      {"user.create", bob.id, std::nullopt, std::nullopt},
                                      {"user.create", ana.id, "ana@example.com", std::nullopt}}));
}

TEST_F(AccountStoreTest, FindsAUserByEmailAndListsEveryAccountByOrganizationThenEmail) {
  const std::string other = registry_.createOrganization("Other", auth::Plan::Pro).id;
  const UserRecord zoe = store_.createUser(organization_, "zoe@example.com", Role::Viewer, kHash, kCli);
  const UserRecord ana = store_.createUser(organization_, "Ana@Example.com", Role::Owner, kHash, kCli);
  const UserRecord bob = store_.createUser(organization_, "bob@example.com", Role::Developer, kHash, kCli);
  const UserRecord carl = store_.createUser(other, "carl@example.com", Role::Owner, kHash, kCli);
  store_.createOperator("olga@example.net", kHash, kCli);
  store_.createUserWithoutDisclosure(organization_, "carl@example.com", Role::Viewer, kHash, kCli);
  store_.enableTotp(bob.id, std::string(20, 's'), 1, kCli);

  EXPECT_EQ(store_.findUserByEmail("ANA@example.COM"), ana);
  EXPECT_EQ(store_.findUserByEmail("bob@example.com")->totpEnabled, true);
  // Neither an operator nor a placeholder is a user.
  EXPECT_EQ(store_.findUserByEmail("olga@example.net"), std::nullopt);
  EXPECT_EQ(store_.findUserByEmail("nobody@example.com"), std::nullopt);
  EXPECT_EQ(store_.findUserByEmail("carl@example.com"), carl);

  UserRecord bobWithTotp = bob;
  bobWithTotp.totpEnabled = true;
  std::vector<UserRecord> everyone{ana, bobWithTotp, zoe, carl};
  if (other < organization_) everyone = {carl, ana, bobWithTotp, zoe};
  EXPECT_EQ(store_.listUserAccounts(std::nullopt), everyone);
  EXPECT_EQ(store_.listUserAccounts(organization_), (std::vector<UserRecord>{ana, bobWithTotp, zoe}));
  EXPECT_EQ(store_.listUserAccounts(other), (std::vector<UserRecord>{carl}));
  EXPECT_EQ(store_.listUserAccounts("org_0000000000000000"), (std::vector<UserRecord>{}));
}

TEST_F(AccountStoreTest, ChangesARoleButNeverTheLastOwnersAndRecordsEachChange) {
  const UserRecord ana = store_.createUser(organization_, "ana@example.com", Role::Owner, kHash, kCli);
  const UserRecord bob = store_.createUser(organization_, "bob@example.com", Role::Viewer, kHash, kCli);
  store_.createOperator("olga@example.net", kHash, kCli);
  const UserRecord placeholder =
      store_.createUserWithoutDisclosure(organization_, "olga@example.net", Role::Owner, kHash, kCli);
  std::string message;
  for (const Role role : {Role::Developer, Role::Viewer}) {
    EXPECT_EQ(errorOf([&] { store_.setRole(ana.id, role, kCli); }, message), AccountError::Kind::InvalidValue);
    EXPECT_EQ(message, "the organization's last owner cannot become " + std::string(roleName(role)) +
                           "; make another user owner first");
  }
  EXPECT_EQ(errorOf([&] { store_.deleteUser(ana.id, kCli); }, message), AccountError::Kind::InvalidValue);
  EXPECT_EQ(message, "the organization's last owner cannot be removed; make another user owner first");
  EXPECT_EQ(errorOf([&] { store_.setRole(placeholder.id, Role::Viewer, kCli); }, message),
            AccountError::Kind::UnknownAccount);
  EXPECT_EQ(message, "no user with id \"" + placeholder.id + "\"");

  clock_.advance(7);
  store_.setRole(ana.id, Role::Owner, kCli);
  store_.setRole(bob.id, Role::Owner, kCli);
  store_.setRole(ana.id, Role::Developer, kCli);
  EXPECT_EQ(store_.findUser(ana.id)->role, Role::Developer);
  EXPECT_EQ(store_.findUser(bob.id)->role, Role::Owner);
  EXPECT_EQ(errorOf([&] { store_.setRole(bob.id, Role::Viewer, kCli); }, message), AccountError::Kind::InvalidValue);
  EXPECT_EQ(rawColumn(database(), "SELECT updated_at FROM users ORDER BY email"),
            std::to_string(kTestEpoch + 7) + "|" + std::to_string(kTestEpoch + 7));
  EXPECT_EQ(store_.readAudit(AuditQuery{organization_, std::string("user.set-role"), 10}),
            (std::vector<AuditRecord>{{7, kTestEpoch + 7, "cli:tester", "user.set-role", ana.id, organization_, "local",
                                       AuditResult::Success, "email=ana@example.com role=owner->developer"},
                                      {6, kTestEpoch + 7, "cli:tester", "user.set-role", bob.id, organization_, "local",
                                       AuditResult::Success, "email=bob@example.com role=viewer->owner"},
                                      {5, kTestEpoch + 7, "cli:tester", "user.set-role", ana.id, organization_, "local",
                                       AuditResult::Success, "email=ana@example.com role=owner->owner"}}));
}

TEST_F(AccountStoreTest, ResettingAPasswordReplacesItsHashAndEndsTheUsersSessionsOnly) {
  const UserRecord ana = store_.createUser(organization_, "ana@example.com", Role::Owner, kHash, kCli);
  const UserRecord bob = store_.createUser(organization_, "bob@example.com", Role::Viewer, kHash, kCli);
  SessionManager sessions(store_, SessionSettings{}, clock_.clock());
  const NewSession first = sessions.start(ana.id);
  sessions.start(ana.id);
  const NewSession bobs = sessions.start(bob.id);
  const std::string newHash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$bmV3IGhhc2g";
  clock_.advance(3);
  EXPECT_EQ(store_.resetPassword(ana.id, newHash, kCli), 2u);
  EXPECT_EQ(store_.findCredentials("ana@example.com")->passwordHash, newHash);
  EXPECT_EQ(store_.findCredentials("bob@example.com")->passwordHash, kHash);
  EXPECT_EQ(sessions.resume(first.id), std::nullopt);
  EXPECT_TRUE(sessions.resume(bobs.id));
  EXPECT_EQ(store_.resetPassword(ana.id, newHash, kCli), 0u);

  std::string message;
  EXPECT_EQ(errorOf([&] { store_.resetPassword(bob.id, "plain password!", kCli); }, message),
            AccountError::Kind::InvalidValue);
  EXPECT_EQ(message, "the password hash is not an Argon2id PHC string");
  EXPECT_EQ(errorOf([&] { store_.resetPassword("usr_0000000000000000", newHash, kCli); }, message),
            AccountError::Kind::UnknownAccount);
  EXPECT_EQ(message, "no user with id \"usr_0000000000000000\"");
  EXPECT_EQ(store_.readAudit(AuditQuery{organization_, std::string("user.reset-password"), 10}),
            (std::vector<AuditRecord>{{4, kTestEpoch + 3, "cli:tester", "user.reset-password", ana.id, organization_,
                                       "local", AuditResult::Success, "email=ana@example.com sessions=0"},
                                      {3, kTestEpoch + 3, "cli:tester", "user.reset-password", ana.id, organization_,
                                       "local", AuditResult::Success, "email=ana@example.com sessions=2"}}));
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM audit_log WHERE detail LIKE '%argon2%'"), "0");
}

TEST_F(AccountStoreTest, AnOwnersResetBlocksThePasswordUntilTheUserCompletesItOnce) {
  const PasswordHasher hasher;
  const UserRecord ana = store_.createUser(organization_, "ana@example.com", Role::Owner, kHash, kCli);
  const UserRecord bob = store_.createUser(organization_, "bob@example.com", Role::Viewer,
                                           hasher.hash("correct horse battery staple"), kCli);
  SessionManager sessions(store_, SessionSettings{}, clock_.clock());
  const NewSession bobs = sessions.start(bob.id);
  const NewSession anas = sessions.start(ana.id);
  const AuditContext owner{"ana@example.com", "192.0.2.7"};
  const ResetCode code = newResetCode();
  ASSERT_EQ(code.code.size(), kResetCodeLength);
  EXPECT_EQ(resetCodeDigest(code.code), code.digest);
  EXPECT_EQ(resetCodeDigest(code.code.substr(1)), std::nullopt);
  EXPECT_EQ(resetCodeDigest(code.code.substr(1) + "="), std::nullopt);
  clock_.advance(1);
  const std::int64_t expiresAt = clock_.now() + kResetCodeSeconds;
  EXPECT_EQ(store_.startPasswordReset(bob.id, code.digest, expiresAt, owner), 1u);
  EXPECT_EQ(sessions.resume(bobs.id), std::nullopt);
  EXPECT_TRUE(sessions.resume(anas.id));
  EXPECT_TRUE(store_.findCredentials("bob@example.com")->passwordResetPending);
  EXPECT_FALSE(store_.findCredentials("ana@example.com")->passwordResetPending);
  EXPECT_EQ(store_.findPasswordReset(code.digest), (PasswordReset{bob.id, organization_, expiresAt}));
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM users WHERE reset_code_digest = '" + code.digest + "'"), "1");
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM users WHERE reset_code_digest = '" + code.code + "'"), "0");

  // The right old password no longer signs in; sign-in says why.
  PasswordCheck passwords(store_, hasher, PasswordThrottleSettings{}, clock_.clock());
  SignInService signIn(store_, passwords, sessions, SignInSettings{}, clock_.clock());
  EXPECT_EQ(
      signIn.signIn(SignInAttempt{"bob@example.com", "correct horse battery staple", {}, "192.0.2.1", {}}).outcome,
      SignInResult::Outcome::PasswordResetPending);
  EXPECT_EQ(signIn.signIn(SignInAttempt{"bob@example.com", "wrong password!!", {}, "192.0.2.1", {}}).outcome,
            SignInResult::Outcome::Refused);

  // A new reset replaces the code.
  const ResetCode second = newResetCode();
  EXPECT_EQ(store_.startPasswordReset(bob.id, second.digest, expiresAt, owner), 0u);
  EXPECT_EQ(store_.findPasswordReset(code.digest), std::nullopt);
  const std::string newHash = hasher.hash("bob's very own password");
  const AuditContext bobsBrowser{"anonymous", "198.51.100.4"};
  EXPECT_FALSE(store_.completePasswordReset(code.digest, newHash, bobsBrowser));
  clock_.advance(2);
  EXPECT_TRUE(store_.completePasswordReset(second.digest, newHash, bobsBrowser));
  EXPECT_FALSE(store_.completePasswordReset(second.digest, newHash, bobsBrowser)) << "once only";
  EXPECT_EQ(store_.findPasswordReset(second.digest), std::nullopt);
  EXPECT_FALSE(store_.findCredentials("bob@example.com")->passwordResetPending);
  EXPECT_EQ(store_.findCredentials("bob@example.com")->passwordHash, newHash);
  EXPECT_EQ(signIn.signIn(SignInAttempt{"bob@example.com", "bob's very own password", {}, "192.0.2.1", {}}).outcome,
            SignInResult::Outcome::SignedIn);

  // An expired code completes nothing, and the password stays blocked.
  const ResetCode third = newResetCode();
  store_.startPasswordReset(bob.id, third.digest, clock_.now() + 10, owner);
  clock_.advance(10);
  EXPECT_FALSE(store_.completePasswordReset(third.digest, kHash, bobsBrowser));
  EXPECT_EQ(store_.findPasswordReset(third.digest)->expiresAt, clock_.now());
  EXPECT_TRUE(store_.findCredentials("bob@example.com")->passwordResetPending);
  // The command line's reset sets a password and clears the owner's.
  store_.resetPassword(bob.id, kHash, kCli);
  EXPECT_FALSE(store_.findCredentials("bob@example.com")->passwordResetPending);
  EXPECT_EQ(store_.findPasswordReset(third.digest), std::nullopt);

  std::string message;
  EXPECT_EQ(errorOf([&] { store_.startPasswordReset("usr_0000000000000000", code.digest, expiresAt, owner); }, message),
            AccountError::Kind::UnknownAccount);
  EXPECT_EQ(message, "no user with id \"usr_0000000000000000\"");
  EXPECT_EQ(errorOf([&] { store_.startPasswordReset(bob.id, code.code, expiresAt, owner); }, message),
            AccountError::Kind::InvalidValue);
  EXPECT_EQ(message, "the reset code digest is not 64 hex digits");
  EXPECT_EQ(errorOf([&] { store_.completePasswordReset(third.digest, "plain password!", bobsBrowser); }, message),
            AccountError::Kind::InvalidValue);

  EXPECT_EQ(store_.readAudit(AuditQuery{organization_, std::string("account.complete-reset"), 10}),
            (std::vector<AuditRecord>{{5, kTestEpoch + 3, "bob@example.com", "account.complete-reset", bob.id,
                                       organization_, "198.51.100.4", AuditResult::Success, "email=bob@example.com"}}));
  EXPECT_EQ(
      store_.readAudit(AuditQuery{organization_, std::string("user.reset-password"), 10}),
      (std::vector<AuditRecord>{{7, kTestEpoch + 13, "cli:tester", "user.reset-password", bob.id, organization_,
                                 "local", AuditResult::Success, "email=bob@example.com sessions=0"},
                                {6, kTestEpoch + 3, "ana@example.com", "user.reset-password", bob.id, organization_,
                                 "192.0.2.7", AuditResult::Success, "email=bob@example.com sessions=1"},
                                {4, kTestEpoch + 1, "ana@example.com", "user.reset-password", bob.id, organization_,
                                 "192.0.2.7", AuditResult::Success, "email=bob@example.com sessions=0"},
                                {3, kTestEpoch + 1, "ana@example.com", "user.reset-password", bob.id, organization_,
                                 "192.0.2.7", AuditResult::Success, "email=bob@example.com sessions=1"}}));
}

TEST_F(AccountStoreTest, AResetOfAUserPlaceholderIsRecordedAndKeepsNothing) {
  const OperatorRecord elsewhere = store_.createOperator("eve@example.com", kHash, kCli);
  const UserRecord placeholder =
      store_.createUserWithoutDisclosure(organization_, "eve@example.com", Role::Viewer, kHash, kCli);
  const ResetCode code = newResetCode();
  EXPECT_EQ(store_.startPasswordReset(placeholder.id, code.digest, clock_.now() + 60, kCli), 0u);
  EXPECT_EQ(store_.findPasswordReset(code.digest), std::nullopt);
  EXPECT_FALSE(store_.findCredentials("eve@example.com")->passwordResetPending);
  EXPECT_EQ(store_.findCredentials("eve@example.com")->principalId, elsewhere.id);
  const std::vector<AuditRecord> records =
      store_.readAudit(AuditQuery{organization_, std::string("user.reset-password"), 10});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].detail, "email=eve@example.com sessions=0");
}

TEST_F(AccountStoreTest, ChangingAPasswordEndsEveryOtherSessionOfTheAccount) {
  const UserRecord ana = store_.createUser(organization_, "ana@example.com", Role::Owner, kHash, kCli);
  const OperatorRecord ops = store_.createOperator("ops@example.com", kHash, kCli);
  SessionManager sessions(store_, SessionSettings{}, clock_.clock());
  const NewSession here = sessions.start(ana.id);
  const NewSession there = sessions.start(ana.id);
  const NewSession operators = sessions.start(ops.id);
  const NewSession operatorsOther = sessions.start(ops.id);
  const std::string newHash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$bmV3IGhhc2g";
  const AuditContext browser{"ana@example.com", "192.0.2.7"};
  clock_.advance(5);
  EXPECT_EQ(store_.changePassword(ana.id, newHash, sessionIdDigest(here.id), browser), 1u);
  EXPECT_TRUE(sessions.resume(here.id));
  EXPECT_EQ(sessions.resume(there.id), std::nullopt);
  EXPECT_TRUE(sessions.resume(operators.id));
  EXPECT_EQ(store_.findCredentials("ana@example.com")->passwordHash, newHash);
  EXPECT_EQ(store_.changePassword(ops.id, newHash, sessionIdDigest(operators.id), kCli), 1u);
  EXPECT_TRUE(sessions.resume(operators.id));
  EXPECT_EQ(sessions.resume(operatorsOther.id), std::nullopt);
  EXPECT_EQ(store_.findCredentials("ops@example.com")->passwordHash, newHash);

  std::string message;
  EXPECT_EQ(errorOf([&] { store_.changePassword(ana.id, "plain password!", "", browser); }, message),
            AccountError::Kind::InvalidValue);
  EXPECT_EQ(errorOf([&] { store_.changePassword("usr_0000000000000000", newHash, "", browser); }, message),
            AccountError::Kind::UnknownAccount);
  EXPECT_EQ(message, "no user with id \"usr_0000000000000000\"");
  EXPECT_EQ(errorOf([&] { store_.changePassword("opr_0000000000000000", newHash, "", browser); }, message),
            AccountError::Kind::UnknownAccount);
  EXPECT_EQ(message, "no account with id \"opr_0000000000000000\"");
  EXPECT_EQ(store_.readAudit(AuditQuery{std::nullopt, std::string("account.change-password"), 10}),
            (std::vector<AuditRecord>{{4, kTestEpoch + 5, "cli:tester", "account.change-password", ops.id, "", "local",
                                       AuditResult::Success, "sessions=1"},
                                      {3, kTestEpoch + 5, "ana@example.com", "account.change-password", ana.id,
                                       organization_, "192.0.2.7", AuditResult::Success, "sessions=1"}}));
  EXPECT_EQ(rawColumn(database(), "SELECT count(*) FROM audit_log WHERE detail LIKE '%argon2%'"), "0");
}

}  // namespace
}  // namespace codepayload::accounts
