#include "accounts/password_check.h"

#include <string>
#include <utility>

#include "accounts/email_address.h"

namespace codepayload::accounts {

PasswordCheck::PasswordCheck(CredentialSource& credentials, const PasswordHasher& hasher,
                             PasswordThrottleSettings settings, auth::UnixClock clock)
    : credentials_(credentials), hasher_(hasher), throttle_(settings, std::move(clock)) {}

PasswordCheckResult PasswordCheck::checkSignInPassword(const PasswordAttempt& attempt) { return check(attempt); }

PasswordCheckResult PasswordCheck::confirmPassword(const PasswordAttempt& attempt) {
  PasswordCheckResult result = check(attempt);
  if (result.outcome == PasswordCheckResult::Outcome::Right) recordSuccess(attempt.email, attempt.address);
  return result;
}

PasswordCheckResult PasswordCheck::check(const PasswordAttempt& attempt) {
  const std::string key = emailKey(attempt.email);
  PasswordCheckResult result;
  if (const ThrottleVerdict verdict = throttle_.admit(key, attempt.address); verdict.retryAfterSeconds > 0) {
    result.outcome = PasswordCheckResult::Outcome::Throttled;
    result.retryAfterSeconds = verdict.retryAfterSeconds;
    result.firstRefusal = verdict.firstRefusal;
    return result;
  }
  result.credentials = credentials_.findCredentials(key);
  ++argon2Runs_;
  bool right = false;
  if (result.credentials) {
    right = hasher_.verify(attempt.password, result.credentials->passwordHash);
  } else {
    hasher_.verifyNothing(attempt.password);
  }
  if (!right) {
    throttle_.recordFailure(key, attempt.address);
    result.outcome = PasswordCheckResult::Outcome::Wrong;
    return result;
  }
  result.outcome = PasswordCheckResult::Outcome::Right;
  return result;
}

void PasswordCheck::recordFailure(std::string_view email, std::string_view address) {
  throttle_.recordFailure(emailKey(email), address);
}

void PasswordCheck::recordSuccess(std::string_view email, std::string_view address) {
  throttle_.recordSuccess(emailKey(email), address);
}

}  // namespace codepayload::accounts
