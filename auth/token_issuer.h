// Issues access tokens: JWTs (RFC 9068 profile) signed with the active key, ES256
// for an EC P-256 key, RS256 for an RSA key.
//
// Header: {"alg":<the active key's algorithm>,"typ":"at+jwt","kid":<thumbprint>}.
// Claims: iss, sub (the organization id: the token represents the
// organization), aud, client_id, scope (space-delimited, the client's scopes in
// creation order; omitted when the client has none), iat, nbf (= iat), exp
// (= iat + lifetime), jti (16 random bytes, base64url). NumericDates are
// integers. ES256 signatures are written in their low-S spelling (ecdsa_low_s.h).
// The JSON is written here (members in lexicographic order, no whitespace) and
// signed by SigningKey::sign: no JSON objects or contexts built per token.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "auth/signing_keys.h"
#include "auth/token_settings.h"
#include "auth/unix_clock.h"

namespace codepayload::auth {

struct TokenSubject {
  std::string_view organizationId;
  std::string_view clientId;
  const std::vector<std::string>& scopes;
  // The client's tokensNotBefore: a token is dated (iat, nbf) no earlier than
  // this, so a token issued after an unblock in the same second as the block
  // is not revoked with the ones before it. It is then dated at most one
  // second ahead of the clock, inside any leeway of a second or more.
  std::int64_t notBefore = 0;
  // The current second as the caller read it, when its decision holds for
  // that second only (RegistryView::authenticated); else the issuer's clock.
  std::optional<std::int64_t> now = std::nullopt;
};

struct IssuedToken {
  std::string accessToken;
  std::int64_t expiresIn = 0;  // seconds
};

class TokenIssuer {
 public:
  // `keys` must outlive the issuer.
  TokenIssuer(const SigningKeySet& keys, TokenSettings settings, UnixClock clock = systemUnixSeconds);

  IssuedToken issue(const TokenSubject& subject) const;

  // The TokenResponse body: {"access_token":...,"token_type":"Bearer","expires_in":N}.
  static std::string responseJson(const IssuedToken& token);

  const TokenSettings& settings() const { return settings_; }

 private:
  const SigningKeySet& keys_;
  TokenSettings settings_;
  UnixClock clock_;
};

}  // namespace codepayload::auth
