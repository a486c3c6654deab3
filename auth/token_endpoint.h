// The whole `POST /oauth/token` decision as a pure function of plain values:
// {method, Content-Type values, Authorization values, query, body, client
// address} -> {status, reason, headers, body}. No Poco::Net types; never throws.
//
// Every answer carries Content-Type: application/json, Cache-Control: no-store
// and Pragma: no-cache. Error bodies are exactly
// {"error":"<code>","error_description":"<text>"} (RFC 6749 §5.2), the text
// one of token_error_descriptions below: fixed, never quoting the request, and
// one text for every invalid_client cause (docs/decisions.md D-U8).
//
// Order of checks (D-K13: request syntax before client authentication,
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
//  4. client authentication (HTTP Basic only; see basic_credentials.h). One
//     HMAC of the presented secret (a fixed dummy when there is none or it is
//     too long), then the in-memory registry view: a known, active id with the
//     right secret is answered from it (D-T6). Anything else does the same work
//     on every path: one registry lookup (a never-issued id stands in for a
//     malformed or missing one; the registry reads a real client's row for an
//     unknown id), one constant-time compare against the stored or a dummy
//     digest; the view's lookup and compare came before, alike for every id.
//     bench/token_failure_timing.cpp measures an unknown id against a wrong
//     secret (docs/decisions.md D-S5). Missing/malformed header, unknown id,
//     wrong secret, blocked or deleted client -> 401 invalid_client with
//     WWW-Authenticate: Basic realm="codepayload", byte-identical; or 429 when
//     the presented client id is over its failure budget.
//  5. organization no longer covers API clients -> 400 unauthorized_client
//  6. client over its issuance budget    -> 429, Retry-After, rate_limited
//  7. issue the token                    -> 200 TokenResponse
// Any registry or signing fault -> 500 server_error (never 401); the fault's
// message is in TokenOutcome::fault for the server's log.
//
// A `scope` request parameter is validated (step 3) and otherwise ignored: the
// token carries all of the client's scopes (the spec's error table has no
// invalid_scope and its TokenResponse has no scope field).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "auth/auth_throttle.h"
#include "auth/client_registry.h"
#include "auth/http_answer.h"
#include "auth/registry_view.h"
#include "auth/secret_hasher.h"
#include "auth/token_issuer.h"

namespace codepayload::auth {

inline constexpr std::string_view kBasicChallenge = "Basic realm=\"codepayload\"";

// The error_description of each refusal. RFC 6749 §5.2 allows the characters
// %x20-21 / %x23-5B / %x5D-7E (printable ASCII but '"' and '\\'), so they
// are written into JSON as they are.
namespace token_error_descriptions {
inline constexpr std::string_view kMethodNotAllowed = "the token endpoint accepts only POST";
inline constexpr std::string_view kTwoContentTypes = "send one Content-Type header: application/x-www-form-urlencoded";
inline constexpr std::string_view kNotForm =
    "the body must be application/x-www-form-urlencoded, e.g. grant_type=client_credentials (not JSON, not "
    "multipart)";
inline constexpr std::string_view kBodyTooLarge = "the body is larger than this endpoint accepts";
inline constexpr std::string_view kQueryTooLong = "the query string is longer than this endpoint accepts";
inline constexpr std::string_view kBadEscape = "the form has a '%' that is not followed by two hex digits";
inline constexpr std::string_view kTooManyFields =
    "the body or the query has more parameters than this endpoint accepts";
inline constexpr std::string_view kDuplicateGrantType =
    "grant_type must be sent once, in the body or in the query, not both";
inline constexpr std::string_view kMissingGrantType = "grant_type is missing: send grant_type=client_credentials";
inline constexpr std::string_view kMultipleAuthMethods =
    "send the client id and secret only with HTTP Basic authentication, not also as client_id or client_secret "
    "parameters";
inline constexpr std::string_view kDuplicateScope = "scope must be sent at most once";
inline constexpr std::string_view kBadScope = "scope must be scope names separated by single spaces";
inline constexpr std::string_view kUnsupportedGrantType = "the only grant_type is client_credentials";
// Every client authentication failure (no, malformed or non-Basic
// Authorization, unknown id, wrong secret, blocked or deleted client): one text,
// so the answer tells nothing about which check failed. It also answers
// credentials sent as client_id/client_secret parameters without Basic (D-K12).
inline constexpr std::string_view kInvalidClient =
    "client authentication failed: send the client id and secret with HTTP Basic authentication";
inline constexpr std::string_view kUnauthorizedClient = "the organization's subscription does not cover API clients";
inline constexpr std::string_view kRateLimited = "too many requests: wait the number of seconds in Retry-After";
inline constexpr std::string_view kServerError = "the server could not answer this request; it is safe to retry";
}  // namespace token_error_descriptions

// {"error":"<error>","error_description":"<description>"}; both must be free of
// '"' and '\\' (every caller passes constants).
std::string tokenErrorBody(std::string_view error, std::string_view description);

// Every TokenOutcome::cause: "issued", then each refusal. The server counts
// outcomes by this name (server/observability/service_metrics.h); the endpoint names a cause
// only through tokenCause, which refuses at compile time a name not listed.
inline constexpr std::array<std::string_view, 15> kTokenOutcomeCauses{
    "issued",           "methodNotAllowed",   "addressThrottled",    "badContentType",    "badForm",
    "missingGrantType", "duplicateGrantType", "multipleAuthMethods", "badScope",          "unsupportedGrantType",
    "badCredentials",   "clientThrottled",    "unauthorizedClient",  "issuanceThrottled", "serverError",
};

consteval std::string_view tokenCause(std::string_view name) {
  for (const std::string_view cause : kTokenOutcomeCauses) {
    if (cause == name) return cause;
  }
  throw "not a cause listed in kTokenOutcomeCauses";
}

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
  std::string clientId;        // set when a client authenticated (safe to log)
  std::string organizationId;  // the client's organization, set when a token is issued
  std::string_view cause;      // stable short name, one of kTokenOutcomeCauses (never sent to the client)
  std::string fault;           // for "serverError": what failed (an exception's message), for the log
};

class TokenEndpoint {
 public:
  // Every argument must outlive the endpoint.
  TokenEndpoint(const RegistryView& view, ClientRegistry& registry, const SecretHasher& hasher,
                const TokenIssuer& issuer, AuthThrottle& throttle, TokenEndpointLimits limits = {});

  TokenOutcome handle(const TokenRequest& request) const noexcept;

 private:
  const RegistryView& view_;
  ClientRegistry& registry_;
  const SecretHasher& hasher_;
  const TokenIssuer& issuer_;
  AuthThrottle& throttle_;
  TokenEndpointLimits limits_;
  SecretDigest dummyDigest_;
};

}  // namespace codepayload::auth
