// Signing in to the dashboard with an email, a password and, when the
// account has TOTP, a code or a recovery code (OWASP Authentication cheat
// sheet). The answer for an unknown email is the answer for a wrong password,
// and costs the same: an unknown email runs one Argon2 verification against
// a dummy hash. Failures are throttled per account (the email as typed,
// known or not) and per client address before any password is checked
// (auth::AuthThrottle, docs/decisions.md D-D6); a successful sign-in starts a
// new session and ends the one the browser held.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "accounts/password_hasher.h"
#include "accounts/session_manager.h"
#include "accounts/totp.h"
#include "auth/auth_throttle.h"
#include "auth/unix_clock.h"

namespace codepayload::accounts {

// What sign-in needs to know of an account.
struct Credentials {
  std::string principalId;
  std::string passwordHash;
  std::optional<std::string> totpSecret;     // raw bytes; nullopt without TOTP
  std::optional<std::int64_t> lastTotpStep;  // the last step accepted

  bool operator==(const Credentials&) const = default;
};

// Where accounts are found (the registry; memory in tests).
class CredentialSource {
 public:
  virtual ~CredentialSource() = default;
  // The account whose emailKey() is `emailKey`, user or operator.
  virtual std::optional<Credentials> findCredentials(std::string_view emailKey) = 0;
  // Records `step` as the last accepted TOTP step when it is later than the
  // stored one; false when it is not (a concurrent sign-in used it).
  virtual bool recordTotpStep(std::string_view principalId, std::int64_t step) = 0;
  // Removes the recovery code with `digest` of the account; false when it has none.
  virtual bool useRecoveryCode(std::string_view principalId, std::string_view digest) = 0;
  // Stores a new hash of the same password (made with raised parameters).
  virtual void replacePasswordHash(std::string_view principalId, std::string_view passwordHash) = 0;
};

// The sign-in settings; the throttle's defaults: 10 failures per account and
// 50 per address within 15 minutes.
struct SignInSettings {
  auth::ThrottleSettings throttle{50, 10, 0, 15 * 60, 100000};
  TotpSettings totp;
};

struct SignInAttempt {
  std::string_view email;
  std::string_view password;
  std::string_view secondFactor;  // TOTP code or recovery code; empty when not asked yet
  std::string_view address;       // the client's address
  std::string_view previousSessionId;
};

struct SignInResult {
  enum class Outcome {
    SignedIn,
    // Unknown email, wrong password, or wrong second factor: one answer.
    Refused,
    // The password is right and the account has TOTP: ask for the code.
    SecondFactorNeeded,
    // Too many failures for this email or from this address.
    Throttled,
  };
  Outcome outcome = Outcome::Refused;
  std::optional<NewSession> session;   // SignedIn only
  std::int64_t retryAfterSeconds = 0;  // Throttled only
  // The account, when known (for the audit log; never shown to the client).
  std::string principalId;
  bool usedRecoveryCode = false;
};

class SignInService {
 public:
  // `credentials`, `hasher` and `sessions` must outlive the service.
  SignInService(CredentialSource& credentials, const PasswordHasher& hasher, SessionManager& sessions,
                SignInSettings settings = {}, auth::UnixClock clock = auth::systemUnixSeconds);

  SignInResult signIn(const SignInAttempt& attempt);

  // Argon2 verifications run so far, the dummy ones included.
  std::uint64_t passwordVerifications() const { return passwordVerifications_.load(); }

 private:
  SignInResult refuse(const SignInAttempt& attempt, std::string_view key, std::string principalId);
  bool secondFactorAccepted(const Credentials& credentials, std::string_view secondFactor, bool& usedRecoveryCode);

  CredentialSource& credentials_;
  const PasswordHasher& hasher_;
  SessionManager& sessions_;
  SignInSettings settings_;
  auth::UnixClock clock_;
  auth::AuthThrottle throttle_;
  std::atomic<std::uint64_t> passwordVerifications_{0};
};

}  // namespace codepayload::accounts
