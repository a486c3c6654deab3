// The whole `POST /oauth/token` decision as a pure function of plain values:
// {method, Content-Type values, Authorization values, query, body, client
// address} -> {status, reason, headers, body}. No Poco::Net types; never throws.
//
// Every answer carries Content-Type: application/json, Cache-Control: no-store
// and Pragma: no-cache. Error bodies are exactly {"error":"<code>"}.
//
// Order of checks (checklist D13: request syntax before client authentication,
// as fosite does; syntax errors reveal nothing about clients):
//  1. method != POST                     -> 405, Allow: POST, invalid_request
//  2. address over its failure budget    -> 429, Retry-After, rate_limited
//                                           (before any hashing or lookup)
//  3. request syntax                     -> 400 invalid_request:
//     - more than one Content-Type; a Content-Type other than
//       application/x-www-form-urlencoded (any case; parameters such as
//       charset are ignored); a non-empty body without Content-Type;
//     - body or query over the size limit, too many fields, a bad %-escape;
//     - grant_type absent or empty in both, or present more than once in
//       total (query + body, any values);
//     - client_id or client_secret in the body or query while an
//       Authorization header is present (two authentication methods);
//     - scope present more than once, or not a valid scope list;
//     then grant_type != "client_credentials" (exact) -> 400 unsupported_grant_type
//  4. client authentication (HTTP Basic only; see basic_credentials.h). The
//     same work on every path: one registry lookup (a never-issued id stands in
//     for a malformed or missing one; the registry reads a real client's row
//     for an unknown id), one HMAC of the presented secret (a fixed dummy when
//     there is none or it is too long), one constant-time compare against the
//     stored or a dummy digest. bench/token_failure_timing.cpp measures an
//     unknown id against a wrong secret (docs/decisions.md D-S5). Missing/malformed header, unknown
//     id, wrong secret, blocked or deleted client -> 401 invalid_client with
//     WWW-Authenticate: Basic realm="codepayload", byte-identical; or 429 when
//     the presented client id is over its failure budget.
//  5. organisation no longer covers API clients -> 400 unauthorized_client
//  6. client over its issuance budget    -> 429, Retry-After, rate_limited
//  7. issue the token                    -> 200 TokenResponse
// Any registry or signing fault -> 500 server_error (never 401).
//
// A `scope` request parameter is validated (step 3) and otherwise ignored: the
// token carries all of the client's scopes (the spec's error table has no
// invalid_scope and its TokenResponse has no scope field).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "auth/auth_throttle.h"
#include "auth/client_registry.h"
#include "auth/http_answer.h"
#include "auth/secret_hasher.h"
#include "auth/token_issuer.h"

namespace codepayload::auth {

inline constexpr std::string_view kBasicChallenge = "Basic realm=\"codepayload\"";

struct TokenRequest {
  std::string_view method;                           // "POST", exactly as received
  std::span<const std::string_view> contentTypes;    // every Content-Type value
  std::span<const std::string_view> authorizations;  // every Authorization value
  std::string_view query;                            // raw query string, without '?'
  std::string_view body;                             // raw body bytes
  std::string_view clientAddress;                    // peer IP address (no port)
};

struct TokenEndpointLimits {
  std::size_t maxBodyBytes = 8192;
  std::size_t maxQueryBytes = 4096;
  std::size_t maxFields = 16;  // per body and per query
};

struct TokenOutcome {
  HttpAnswer answer;
  std::string clientId;    // set when a client authenticated (safe to log)
  std::string_view cause;  // stable short name for logs: "issued", "methodNotAllowed",
                           // "addressThrottled", "badContentType", "badForm", "missingGrantType",
                           // "duplicateGrantType", "multipleAuthMethods", "badScope",
                           // "unsupportedGrantType", "badCredentials", "clientThrottled",
                           // "unauthorizedClient", "issuanceThrottled", "serverError"
};

class TokenEndpoint {
 public:
  // Every argument must outlive the endpoint.
  TokenEndpoint(ClientRegistry& registry, const SecretHasher& hasher, const TokenIssuer& issuer, AuthThrottle& throttle,
                TokenEndpointLimits limits = {});

  TokenOutcome handle(const TokenRequest& request) const noexcept;

 private:
  ClientRegistry& registry_;
  const SecretHasher& hasher_;
  const TokenIssuer& issuer_;
  AuthThrottle& throttle_;
  TokenEndpointLimits limits_;
  SecretDigest dummyDigest_;
};

}  // namespace codepayload::auth
