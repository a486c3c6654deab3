// Verifies an access token string on its own: structure, header, signature,
// claims and time. No registry, no cache (BearerAuthenticator adds those).
// A pure function of (token, keys, settings, now); a libFuzzer target.
//
// Checks, in order (deny by default: each must pass):
//  1. length <= kMaxAccessTokenLength; exactly three '.'-separated segments,
//     each non-empty strict base64url (no padding, canonical last character);
//  2. header: a JSON object (valid UTF-8, no duplicate members) with exactly
//     the members alg, typ, kid and no others (so no crit, jku, x5u, jwk, x5c,
//     cty); alg "ES256" or "RS256" exactly; typ "at+jwt" or
//     "application/at+jwt" (ASCII case-insensitive); kid a string naming a
//     key of the set (else UnknownKey); alg the algorithm of that key (else
//     BadHeader: an ES256 header with an RSA kid, or RS256 with an EC kid);
//  3. signature: exactly the key's signature size (64 bytes for ES256, the
//     modulus size for RS256) and, for ES256, S <= n/2 (the low-S spelling,
//     ecdsa_low_s.h) before Poco sees it, then verified over
//     "<header>.<payload>" with that key (Poco::JWT, that algorithm only);
//  4. payload: a JSON object without duplicate members; iss, sub, client_id,
//     jti non-empty strings; scope absent or a string; aud a string or an
//     array of strings; iat, exp integers (JSON integers, not strings or
//     fractions), nbf absent or an integer, all in [0, 2^53);
//  5. iss == settings.issuer exactly; aud equal to / containing settings.audience;
//     sub a well-formed organization id; client_id a well-formed client id;
//  6. time, with L = settings.leewaySeconds: exp > iat; now <= exp + L
//     (else Expired); nbf <= now + L and iat <= now + L (else NotYetValid).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "auth/signing_keys.h"
#include "auth/token_settings.h"

namespace codepayload::auth {

inline constexpr std::size_t kMaxAccessTokenLength = 4096;

struct AccessTokenClaims {
  std::string organizationId;  // sub
  std::string clientId;        // client_id
  std::string scope;           // space-delimited; "" when absent
  std::string jwtId;           // jti
  std::int64_t issuedAt = 0;   // iat
  std::int64_t expiresAt = 0;  // exp
};

enum class TokenRejection {
  None,
  TooLong,       // over kMaxAccessTokenLength
  Malformed,     // segments, base64url, JSON, or a claim of the wrong type/shape
  BadHeader,     // alg (unsupported, or not its key's), typ, or a header member that is not allowed
  UnknownKey,    // kid names no key of the set
  BadSignature,  // signature does not verify, or is the high-S spelling of an ES256 one
  WrongIssuer,
  WrongAudience,
  Expired,      // now > exp + leeway
  NotYetValid,  // nbf or iat later than now + leeway
};

// A short stable name ("none", "tooLong", "malformed", ...).
std::string_view tokenRejectionName(TokenRejection rejection);

class AccessTokenVerifier {
 public:
  // `keys` must outlive the verifier.
  AccessTokenVerifier(const SigningKeySet& keys, TokenSettings settings);

  // Verifies `token` at time `now` (Unix seconds). Fills `claims` only when
  // the result is None. Never throws for any input.
  TokenRejection verify(std::string_view token, std::int64_t now, AccessTokenClaims& claims) const;

  const TokenSettings& settings() const { return settings_; }

 private:
  const SigningKeySet& keys_;
  TokenSettings settings_;
};

// True when `scope` is a scope list (forEachScopeInList: valid tokens,
// single spaces between them) that contains `required` as one whole token,
// exact and case-sensitive; a scope with leading, trailing or doubled spaces,
// or any invalid token, matches nothing.
bool scopeContains(std::string_view scope, std::string_view required);

}  // namespace codepayload::auth
