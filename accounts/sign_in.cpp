#include "accounts/sign_in.h"

#include <algorithm>

#include "accounts/email_address.h"
#include "accounts/recovery_codes.h"

namespace codepayload::accounts {

SignInService::SignInService(CredentialSource& credentials, const PasswordHasher& hasher, SessionManager& sessions,
                             SignInSettings settings, auth::UnixClock clock)
    : credentials_(credentials),
      hasher_(hasher),
      sessions_(sessions),
      settings_(settings),
      clock_(clock),
      throttle_(settings.throttle, clock) {}

SignInResult SignInService::signIn(const SignInAttempt& attempt) {
  const std::string key = emailKey(attempt.email);
  SignInResult result;
  const std::int64_t wait =
      std::max(throttle_.addressRetryAfter(attempt.address), throttle_.clientFailureRetryAfter(key));
  if (wait > 0) {
    result.outcome = SignInResult::Outcome::Throttled;
    result.retryAfterSeconds = wait;
    return result;
  }
  const std::optional<Credentials> credentials = credentials_.findCredentials(key);
  ++passwordVerifications_;
  if (!credentials) {
    hasher_.verifyNothing(attempt.password);
    return refuse(attempt, key, "");
  }
  if (!hasher_.verify(attempt.password, credentials->passwordHash)) {
    return refuse(attempt, key, credentials->principalId);
  }
  if (credentials->totpSecret) {
    if (attempt.secondFactor.empty()) {
      result.outcome = SignInResult::Outcome::SecondFactorNeeded;
      result.principalId = credentials->principalId;
      return result;
    }
    if (!secondFactorAccepted(*credentials, attempt.secondFactor, result.usedRecoveryCode)) {
      return refuse(attempt, key, credentials->principalId);
    }
  }
  if (hasher_.needsRehash(credentials->passwordHash)) {
    credentials_.replacePasswordHash(credentials->principalId, hasher_.hash(attempt.password));
  }
  result.outcome = SignInResult::Outcome::SignedIn;
  result.principalId = credentials->principalId;
  result.session = sessions_.start(credentials->principalId, attempt.previousSessionId);
  return result;
}

SignInResult SignInService::refuse(const SignInAttempt& attempt, std::string_view key, std::string principalId) {
  throttle_.recordFailure(attempt.address, key);
  SignInResult result;
  result.outcome = SignInResult::Outcome::Refused;
  result.principalId = std::move(principalId);
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
