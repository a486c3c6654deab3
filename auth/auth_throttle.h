// Brute-force throttling for client authentication at the token endpoint
// (RFC 6749 §2.3.1: the server MUST protect against brute force), and a cap
// on how many tokens one client can mint.
//
// Fixed windows of `windowSeconds`:
//  - per client address (an IPv6 address counts for its whole /64, which one
//    client usually controls; see common::addressKey): more than `failuresPerAddress` failed
//    authentications -> every token request from that address gets 429 until
//    the window ends, before any credential check (so a correct secret sent
//    from there learns nothing);
//  - per client id (as presented, known or not): more than
//    `failuresPerClient` failures -> requests for that id are still checked,
//    a correct secret still gets its token (the real client, elsewhere, keeps
//    working), but a failure is answered 429 instead of 401;
//  - per client id: more than `tokensPerClient` tokens issued -> 429.
// Each table holds at most `maxTrackedKeys` keys (expired entries dropped
// first, then arbitrary ones), so memory stays bounded under a flood of
// addresses or ids. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "auth/unix_clock.h"

namespace codepayload::auth {

struct ThrottleSettings {
  std::uint32_t failuresPerAddress = 20;
  std::uint32_t failuresPerClient = 100;
  std::uint32_t tokensPerClient = 600;
  std::int64_t windowSeconds = 60;
  std::size_t maxTrackedKeys = 100000;
};

class AuthThrottle {
 public:
  explicit AuthThrottle(ThrottleSettings settings, UnixClock clock = systemUnixSeconds);
  ~AuthThrottle();

  AuthThrottle(const AuthThrottle&) = delete;
  AuthThrottle& operator=(const AuthThrottle&) = delete;

  // Seconds until `address` may try again (>= 1), or 0 when it may try now.
  std::int64_t addressRetryAfter(std::string_view address) const;
  // Same for failures of `clientId`.
  std::int64_t clientFailureRetryAfter(std::string_view clientId) const;
  // Counts one failed authentication against `address` and, when not empty,
  // `clientId`.
  void recordFailure(std::string_view address, std::string_view clientId);
  // Counts one issued token for `clientId` if under the cap and returns 0;
  // otherwise returns the seconds until the next window (nothing counted).
  std::int64_t acquireIssuance(std::string_view clientId);

  const ThrottleSettings& settings() const { return settings_; }

 private:
  struct Table;
  ThrottleSettings settings_;
  UnixClock clock_;
  std::unique_ptr<Table> addressFailures_;
  std::unique_ptr<Table> clientFailures_;
  std::unique_ptr<Table> clientIssuance_;
};

}  // namespace codepayload::auth
