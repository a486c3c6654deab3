// Every check of a dashboard account's password goes through one
// PasswordCheck: the password step of a sign-in, and the password asked again
// of a signed-in person before a change that needs it (turning TOTP off,
// changing the password). All share one PasswordThrottle, so failures at any
// of them count together and none is an unthrottled oracle.
//
// One check, in this order (deny by default: only a verification that matched
// is Right):
//  1. the throttle (accounts/password_throttle.h), before anything is looked
//     up or hashed: a throttled check reads no account and runs no Argon2;
//  2. the account of the email's key (accounts/email_address.h);
//  3. one Argon2 verification, against the account's hash or, when the email
//     names no account, the hasher's dummy (the same cost, the same answer);
//  4. a wrong password counts as a failure of that email from that address.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string_view>

#include "accounts/credential_source.h"
#include "accounts/password_hasher.h"
#include "accounts/password_throttle.h"
#include "auth/unix_clock.h"

namespace codepayload::accounts {

struct PasswordAttempt {
  std::string_view email;  // as typed, or the signed-in account's
  std::string_view password;
  std::string_view address;  // the client's
};

struct PasswordCheckResult {
  enum class Outcome { Right, Wrong, Throttled };
  Outcome outcome = Outcome::Wrong;
  // The account the email names, when the check ran and found one (Right, and
  // Wrong for an existing account). Never shown to the client.
  std::optional<Credentials> credentials;
  std::int64_t retryAfterSeconds = 0;  // Throttled only
  bool firstRefusal = false;           // Throttled only: ThrottleVerdict::firstRefusal
};

class PasswordCheck {
 public:
  // `credentials` and `hasher` must outlive the check.
  PasswordCheck(CredentialSource& credentials, const PasswordHasher& hasher, PasswordThrottleSettings settings = {},
                auth::UnixClock clock = auth::systemUnixSeconds);

  // The password step of a sign-in. A right password is not yet a success:
  // the caller records the sign-in's end (recordFailure for a wrong second
  // factor, recordSuccess when it signs in).
  PasswordCheckResult checkSignInPassword(const PasswordAttempt& attempt);

  // The password asked again of a signed-in account before a change: a right
  // password is a success at once.
  PasswordCheckResult confirmPassword(const PasswordAttempt& attempt);

  // A failure after the right password (a wrong second factor).
  void recordFailure(std::string_view email, std::string_view address);
  // The end of a successful sign-in: the address's failures for the account end.
  void recordSuccess(std::string_view email, std::string_view address);

  const PasswordHasher& hasher() const { return hasher_; }
  // Argon2 verifications run so far, the dummy ones included.
  std::uint64_t argon2Runs() const { return argon2Runs_.load(); }

 private:
  PasswordCheckResult check(const PasswordAttempt& attempt);

  CredentialSource& credentials_;
  const PasswordHasher& hasher_;
  PasswordThrottle throttle_;
  std::atomic<std::uint64_t> argon2Runs_{0};
};

}  // namespace codepayload::accounts
