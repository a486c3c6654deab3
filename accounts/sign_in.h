// Signing in to the dashboard with an email, a password and, when the
// account has TOTP, a code or a recovery code (OWASP Authentication cheat
// sheet). The password step is a PasswordCheck (accounts/password_check.h):
// throttled per address and per email (as typed, known or not) and address
// before anything is looked up, one Argon2 run whether or not the email names
// an account, and one answer for an unknown email and a wrong password
// (docs/decisions.md D-D6 and "Security, third round"). A wrong second
// factor counts as a failure too; a successful sign-in ends the address's
// failures for the account, starts a new session and ends the one the browser
// held.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "accounts/credential_source.h"
#include "accounts/password_check.h"
#include "accounts/session_manager.h"
#include "accounts/totp.h"
#include "auth/unix_clock.h"

namespace codepayload::accounts {

struct SignInSettings {
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
    // Too many failures from this address, or for this email from this
    // address, or the delay after this address's last failure for this email.
    Throttled,
    // The password is right but an owner reset it: the user must complete
    // the reset (Credentials::passwordResetPending) first.
    PasswordResetPending,
  };
  Outcome outcome = Outcome::Refused;
  std::optional<NewSession> session;   // SignedIn only
  std::int64_t retryAfterSeconds = 0;  // Throttled only
  bool firstRefusal = false;           // Throttled only: ThrottleVerdict::firstRefusal
  // The account, when known (for the audit log; never shown to the client).
  std::string principalId;
  bool usedRecoveryCode = false;
};

class SignInService {
 public:
  // `credentials`, `passwords` (on the same credentials) and `sessions` must
  // outlive the service.
  SignInService(CredentialSource& credentials, PasswordCheck& passwords, SessionManager& sessions,
                SignInSettings settings = {}, auth::UnixClock clock = auth::systemUnixSeconds);

  SignInResult signIn(const SignInAttempt& attempt);

 private:
  bool secondFactorAccepted(const Credentials& credentials, std::string_view secondFactor, bool& usedRecoveryCode);

  CredentialSource& credentials_;
  PasswordCheck& passwords_;
  SessionManager& sessions_;
  SignInSettings settings_;
  auth::UnixClock clock_;
};

}  // namespace codepayload::accounts
