// Throttling of password guesses at the dashboard that a stranger cannot
// turn into a lockout of someone else's account (OWASP Authentication cheat
// sheet: count failures by account and address, prefer delays to locks).
// Failed password checks are counted in fixed windows of `windowSeconds`,
// each opened by its key's first failure, under three keys:
//  1. the client address (an IPv6 address counts for its /64,
//     common::addressKey): at `failuresPerAddress` failures the address is
//     refused for every account until its window ends;
//  2. the account and the address (the email key as typed, whether or not an
//     account has it, from that address): at `failuresPerAccountAndAddress`
//     that address is refused for that account until the window ends;
//  3. the account from every address: once it holds more than
//     `accountFailuresBeforeDelay` failures, an address that has failed for
//     the account waits before each further check, 1 s after its last
//     failure for the first failure beyond that, twice as long for each
//     further one, at most `maxDelaySeconds`.
// An address that has not failed for an account is refused only by (1):
// however many failures others cause, the account's owner is checked at once
// from an address of their own. A success ends (2) and (3) for that account
// from that address and takes that address's failures out of the account's
// count (they were the owner's own typing); the address's count stays.
// Each of the three tables holds at most `maxTrackedKeys` keys (16 bytes of
// SHA-256 of the key, whatever the length of the typed email); when one is
// full, windows that ended go first, then the one that ends soonest.
// Thread-safe; a check and the count of its failure are two steps, so
// concurrent attempts already admitted may each add one failure beyond a limit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "auth/unix_clock.h"

namespace codepayload::accounts {

struct PasswordThrottleSettings {
  std::uint32_t failuresPerAddress = 50;
  std::uint32_t failuresPerAccountAndAddress = 10;
  std::uint32_t accountFailuresBeforeDelay = 10;
  std::int64_t maxDelaySeconds = 300;
  std::int64_t windowSeconds = 15 * 60;
  std::size_t maxTrackedKeys = 100000;
};

// Whether a password may be checked now.
struct ThrottleVerdict {
  // 0: check it; otherwise the seconds until the address may try again for
  // this account (at least 1).
  std::int64_t retryAfterSeconds = 0;
  // The first refusal since the lock or the delay began: the one refusal of
  // it worth an audit record (the others would only repeat it).
  bool firstRefusal = false;

  bool operator==(const ThrottleVerdict&) const = default;
};

class PasswordThrottle {
 public:
  explicit PasswordThrottle(PasswordThrottleSettings settings = {}, auth::UnixClock clock = auth::systemUnixSeconds);
  ~PasswordThrottle();

  PasswordThrottle(const PasswordThrottle&) = delete;
  PasswordThrottle& operator=(const PasswordThrottle&) = delete;

  // Whether a password of the account `accountKey` (an email key) may be
  // checked for a request from `address` now: the address's lock, then the
  // pair's lock, then the pair's delay.
  ThrottleVerdict admit(std::string_view accountKey, std::string_view address);
  // Counts one failed check (a wrong password, or a wrong second factor after
  // the right password) under the three keys.
  void recordFailure(std::string_view accountKey, std::string_view address);
  // Ends the failures of `accountKey` from `address` (the lock and the delay
  // of that pair) and takes them out of the account's count; the address's
  // count stays.
  void recordSuccess(std::string_view accountKey, std::string_view address);

  const PasswordThrottleSettings& settings() const { return settings_; }
  // The keys the three tables hold together now, expired ones included
  // until pushed out.
  std::size_t trackedKeys() const;

 private:
  class Table;
  PasswordThrottleSettings settings_;
  auth::UnixClock clock_;
  std::unique_ptr<Table> addresses_;
  std::unique_ptr<Table> accountsFromAddresses_;
  std::unique_ptr<Table> accounts_;
};

}  // namespace codepayload::accounts
