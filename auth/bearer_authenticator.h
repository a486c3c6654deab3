// Bearer-token authentication for protected endpoints (POST /codes), RFC 6750.
// A pure function of the Authorization values and the scope the endpoint
// needs; no HTTP types; never throws.
//
//  - no Authorization value, or a non-Bearer scheme -> 401,
//    WWW-Authenticate: Bearer realm="codepayload" (no error code, RFC 6750 §3.1)
//  - more than one value; "Bearer" without a token; a token outside the
//    b64token charset or over 4 KiB; any AccessTokenVerifier rejection; a
//    client that is blocked, deleted or no longer the organization's, or a
//    token issued before the client was last blocked -> 401,
//    Bearer realm="codepayload", error="invalid_token"
//  - the organization's plan/subscription no longer covers API clients -> 403,
//    Bearer realm="codepayload", error="insufficient_scope",
//    error_description="subscription does not cover API clients"
//  - scope lacks `requiredScope` (scopeContains) -> 403,
//    Bearer realm="codepayload", error="insufficient_scope", scope="<required>"
//  - the registry cannot be read when the view must be refreshed for a token
//    of a client it does not know -> 500 ServerError, no challenge, the
//    registry's message in `fault` for the log (D-U10; never a 401: the token
//    may be good)
// The scheme is matched case-insensitively. ErrorEnvelope code is
// "Unauthorized" (401) or "Forbidden" (403), with a one-sentence message that
// never repeats the token. Every invalid_token 401 has the same message, "The
// access token is not valid.", whichever check failed (only `cause`, for the
// log, names it); the two 401s without an error code (no Authorization, not
// Bearer) say what to send, which reveals nothing about the token checks.
//
// Verified tokens are cached by their exact string until exp + leeway; the
// client's standing (and the token's iat against the client's
// tokensNotBefore) is checked on every call against the RegistryView, cache
// hit or not, so a cached token is revoked as soon as the view is. The
// allowed path does not allocate on a cache hit.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "auth/access_token_verifier.h"
#include "auth/registry_view.h"
#include "auth/unix_clock.h"
#include "auth/verified_token_cache.h"

namespace codepayload::auth {

inline constexpr std::string_view kBearerChallenge = "Bearer realm=\"codepayload\"";

struct BearerOutcome {
  enum class Verdict { Allowed, Unauthorized, Forbidden, ServerError };

  Verdict verdict = Verdict::Unauthorized;
  int status = 401;                                 // 200, 401, 403 or 500
  std::string_view reason;                          // "OK", "Unauthorized", "Forbidden", "Internal Server Error"
  std::string wwwAuthenticate;                      // empty when allowed
  std::string_view errorCode;                       // ErrorEnvelope code; empty when allowed
  std::string message;                              // ErrorEnvelope message; empty when allowed
  std::string_view cause;                           // stable short name for logs ("ok", "missing", "notBearer",
                                                    // "multipleHeaders", "emptyToken", "badCharacters",
                                                    // a tokenRejectionName, "revoked", "lapsed", "insufficientScope",
                                                    // "registryFault")
  std::string fault;                                // for ServerError: what failed, for the log
  std::shared_ptr<const AccessTokenClaims> claims;  // set when allowed

  bool allowed() const { return verdict == Verdict::Allowed; }
};

class BearerAuthenticator {
 public:
  // Every argument must outlive the authenticator.
  BearerAuthenticator(const AccessTokenVerifier& verifier, RegistryView& view, VerifiedTokenCache& cache,
                      UnixClock clock = systemUnixSeconds);

  // `authorizationValues`: every Authorization header value of the request
  // (the first two are enough).
  BearerOutcome authenticate(std::span<const std::string_view> authorizationValues,
                             std::string_view requiredScope) const noexcept;

 private:
  const AccessTokenVerifier& verifier_;
  RegistryView& view_;  // refreshed on a token of a client it does not know yet
  VerifiedTokenCache& cache_;
  UnixClock clock_;
};

}  // namespace codepayload::auth
