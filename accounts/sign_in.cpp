#include "accounts/sign_in.h"

#include <utility>

#include "accounts/recovery_codes.h"

namespace codepayload::accounts {

SignInService::SignInService(CredentialSource& credentials, PasswordCheck& passwords, SessionManager& sessions,
                             SignInSettings settings, auth::UnixClock clock)
    : credentials_(credentials),
      passwords_(passwords),
      sessions_(sessions),
      settings_(settings),
      clock_(std::move(clock)) {}

SignInResult SignInService::signIn(const SignInAttempt& attempt) {
  SignInResult result;
  PasswordCheckResult password =
      passwords_.checkSignInPassword(PasswordAttempt{attempt.email, attempt.password, attempt.address});
  switch (password.outcome) {
    case PasswordCheckResult::Outcome::Throttled:
      result.outcome = SignInResult::Outcome::Throttled;
      result.retryAfterSeconds = password.retryAfterSeconds;
      result.firstRefusal = password.firstRefusal;
      return result;
    case PasswordCheckResult::Outcome::Wrong:
      result.outcome = SignInResult::Outcome::Refused;
      if (password.credentials) result.principalId = password.credentials->principalId;
      return result;
    case PasswordCheckResult::Outcome::Right: break;
  }
  const Credentials& credentials = *password.credentials;
  result.principalId = credentials.principalId;
  // Only after the right password: the pending reset is told to no one else.
  if (credentials.passwordResetPending) {
    result.outcome = SignInResult::Outcome::PasswordResetPending;
    return result;
  }
  if (credentials.totpSecret) {
    if (attempt.secondFactor.empty()) {
      result.outcome = SignInResult::Outcome::SecondFactorNeeded;
      return result;
    }
    if (!secondFactorAccepted(credentials, attempt.secondFactor, result.usedRecoveryCode)) {
      passwords_.recordFailure(attempt.email, attempt.address);
      result.outcome = SignInResult::Outcome::Refused;
      return result;
    }
  }
  if (passwords_.hasher().needsRehash(credentials.passwordHash)) {
    credentials_.replacePasswordHash(credentials.principalId, passwords_.hasher().hash(attempt.password));
  }
  passwords_.recordSuccess(attempt.email, attempt.address);
  result.outcome = SignInResult::Outcome::SignedIn;
  result.session = sessions_.start(credentials.principalId, attempt.previousSessionId);
  return result;
}

bool SignInService::secondFactorAccepted(const Credentials& credentials, std::string_view secondFactor,
                                         bool& usedRecoveryCode) {
  if (secondFactor.size() == static_cast<std::size_t>(settings_.totp.digits)) {
    const std::optional<std::int64_t> step =
        acceptTotp(*credentials.totpSecret, secondFactor, clock_(), credentials.lastTotpStep, settings_.totp);
    return step && credentials_.recordTotpStep(credentials.principalId, *step);
  }
  const std::optional<std::string> digest = recoveryCodeDigest(secondFactor);
  if (!digest || !credentials_.useRecoveryCode(credentials.principalId, *digest)) return false;
  usedRecoveryCode = true;
  return true;
}

}  // namespace codepayload::accounts
