#include "auth/token_endpoint.h"

#include <vector>

#include "auth/basic_credentials.h"
#include "auth/form_urlencoded.h"
#include "auth/random_strings.h"
#include "common/ascii.h"

namespace codepayload::auth {

namespace {

constexpr std::string_view kGrantType = "client_credentials";
constexpr std::string_view kFormMediaType = "application/x-www-form-urlencoded";
// Looked up whenever no well-formed client id was presented, so every path
// makes the same registry round trip. No issued id has an empty suffix.
constexpr std::string_view kNeverIssuedClientId = kClientIdPrefix;
// Hashed whenever no usable secret was presented (43 characters, like a real one).
constexpr std::string_view kDummySecret = "dummy-secret-dummy-secret-dummy-secret-dumm";

bool isFormMediaType(std::string_view contentType) {
  // Parameters (charset=...) are ignored: every parameter this endpoint reads is ASCII.
  return common::equalsIgnoringAsciiCase(common::trimSpaceAndTab(contentType.substr(0, contentType.find(';'))),
                                         kFormMediaType);
}

bool isValidScopeList(std::string_view scope) {
  return forEachScopeInList(scope, [](std::string_view) {});
}

HttpAnswer jsonAnswer(int status, std::string_view reason, std::string body) {
  HttpAnswer answer;
  answer.status = status;
  answer.reason = reason;
  answer.headers = {{"Content-Type", "application/json"}, {"Cache-Control", "no-store"}, {"Pragma", "no-cache"}};
  answer.body = std::move(body);
  return answer;
}

TokenOutcome failure(int status, std::string_view reason, std::string_view error, std::string_view description,
                     std::string_view cause) {
  TokenOutcome outcome;
  outcome.answer = jsonAnswer(status, reason, tokenErrorBody(error, description));
  outcome.cause = cause;
  return outcome;
}

TokenOutcome invalidClient() {
  TokenOutcome outcome = failure(401, "Unauthorized", "invalid_client", token_error_descriptions::kInvalidClient,
                                 tokenCause("badCredentials"));
  outcome.answer.headers.push_back({"WWW-Authenticate", std::string(kBasicChallenge)});
  return outcome;
}

TokenOutcome rateLimited(std::int64_t retryAfter, std::string_view cause) {
  TokenOutcome outcome =
      failure(429, "Too Many Requests", "rate_limited", token_error_descriptions::kRateLimited, cause);
  outcome.answer.headers.push_back({"Retry-After", std::to_string(retryAfter)});
  return outcome;
}

TokenOutcome serverError(std::string_view fault) {
  TokenOutcome outcome = failure(500, "Internal Server Error", "server_error", token_error_descriptions::kServerError,
                                 tokenCause("serverError"));
  outcome.fault = fault;
  return outcome;
}

// The outcome of step 3: why the request is refused, or an empty cause.
struct SyntaxVerdict {
  std::string_view cause;  // empty when the request is well-formed
  std::string_view description = {};
  bool unsupportedGrant = false;
};

SyntaxVerdict checkSyntax(const TokenRequest& request, const TokenEndpointLimits& limits) {
  namespace text = token_error_descriptions;
  if (request.contentTypes.size() > 1) return {tokenCause("badContentType"), text::kTwoContentTypes};
  if (request.contentTypes.size() == 1 ? !isFormMediaType(request.contentTypes.front()) : !request.body.empty()) {
    return {tokenCause("badContentType"), text::kNotForm};
  }
  if (request.body.size() > limits.maxBodyBytes) return {tokenCause("badForm"), text::kBodyTooLarge};
  if (request.query.size() > limits.maxQueryBytes) return {tokenCause("badForm"), text::kQueryTooLong};
  std::vector<FormField> bodyFields;
  std::vector<FormField> queryFields;
  for (const auto& [text, fields] : {std::pair{request.body, &bodyFields}, std::pair{request.query, &queryFields}}) {
    switch (parseForm(text, limits.maxFields, *fields)) {
      case FormError::None: break;
      case FormError::BadEscape: return {tokenCause("badForm"), text::kBadEscape};
      case FormError::TooManyFields: return {tokenCause("badForm"), text::kTooManyFields};
    }
  }

  std::size_t grantTypeCount = 0;
  std::string_view grantType;
  std::size_t scopeCount = 0;
  std::string_view scope;
  bool credentialsInParameters = false;
  for (const std::vector<FormField>* fields : {&queryFields, &bodyFields}) {
    for (const FormField& field : *fields) {
      if (field.name == "grant_type") {
        ++grantTypeCount;
        grantType = field.value;
      } else if (field.name == "scope") {
        ++scopeCount;
        scope = field.value;
      } else if (field.name == "client_id" || field.name == "client_secret") {
        credentialsInParameters = true;
      }
    }
  }
  // RFC 6749 §3.2: no parameter more than once, query and body together; a
  // parameter without a value counts as omitted.
  if (grantTypeCount > 1) return {tokenCause("duplicateGrantType"), text::kDuplicateGrantType};
  if (grantTypeCount == 0 || grantType.empty()) return {tokenCause("missingGrantType"), text::kMissingGrantType};
  if (credentialsInParameters && !request.authorizations.empty()) {
    return {tokenCause("multipleAuthMethods"), text::kMultipleAuthMethods};
  }
  if (scopeCount > 1) return {tokenCause("badScope"), text::kDuplicateScope};
  if (!scope.empty() && !isValidScopeList(scope)) return {tokenCause("badScope"), text::kBadScope};
  if (grantType != kGrantType) return {tokenCause("unsupportedGrantType"), text::kUnsupportedGrantType, true};
  return {};
}

}  // namespace

std::string tokenErrorBody(std::string_view error, std::string_view description) {
  std::string body = R"({"error":")";
  body.append(error).append(R"(","error_description":")").append(description).append(R"("})");
  return body;
}

TokenEndpoint::TokenEndpoint(const RegistryView& view, ClientRegistry& registry, const SecretHasher& hasher,
                             const TokenIssuer& issuer, AuthThrottle& throttle, TokenEndpointLimits limits)
    : view_(view),
      registry_(registry),
      hasher_(hasher),
      issuer_(issuer),
      throttle_(throttle),
      limits_(limits),
      dummyDigest_(hasher.digest(randomBase64Url(32))) {}

TokenOutcome TokenEndpoint::handle(const TokenRequest& request) const noexcept {
  try {
    if (request.method != "POST") {
      TokenOutcome outcome = failure(405, "Method Not Allowed", "invalid_request",
                                     token_error_descriptions::kMethodNotAllowed, tokenCause("methodNotAllowed"));
      outcome.answer.headers.push_back({"Allow", "POST"});
      return outcome;
    }
    if (const std::int64_t wait = throttle_.addressRetryAfter(request.clientAddress); wait > 0) {
      return rateLimited(wait, tokenCause("addressThrottled"));
    }
    if (const SyntaxVerdict syntax = checkSyntax(request, limits_); !syntax.cause.empty()) {
      return failure(400, "Bad Request", syntax.unsupportedGrant ? "unsupported_grant_type" : "invalid_request",
                     syntax.description, syntax.cause);
    }

    // Client authentication: the same work whatever is wrong (see the header).
    BasicCredentials credentials;
    const bool parsed = parseBasicCredentials(request.authorizations, credentials) == BasicCredentialsError::Ok;
    const bool wellFormedId = parsed && isWellFormedClientId(credentials.clientId);
    const std::string_view presentedId = wellFormedId ? std::string_view(credentials.clientId) : kNeverIssuedClientId;
    const SecretDigest presented = hasher_.digest(parsed ? std::string_view(credentials.clientSecret) : kDummySecret);
    const ViewAuthentication vouched = view_.authenticated(presentedId, presented);
    std::optional<ClientAuthRecord> looked;
    if (!vouched.client) {
      looked = registry_.findClientForAuthentication(presentedId);
      const bool secretMatches = SecretHasher::equal(presented, looked ? looked->secretDigest : dummyDigest_);
      if (!looked || !secretMatches || looked->state != ClientState::Active) {
        const std::string_view throttledId = wellFormedId ? std::string_view(credentials.clientId) : std::string_view();
        const std::int64_t wait = throttledId.empty() ? 0 : throttle_.clientFailureRetryAfter(throttledId);
        throttle_.recordFailure(request.clientAddress, throttledId);
        return wait > 0 ? rateLimited(wait, tokenCause("clientThrottled")) : invalidClient();
      }
    }
    const ClientAuthRecord* const record = vouched.client ? vouched.client.get() : &*looked;

    if (!record->organizationCoversApiClients) {
      TokenOutcome outcome = failure(400, "Bad Request", "unauthorized_client",
                                     token_error_descriptions::kUnauthorizedClient, tokenCause("unauthorizedClient"));
      outcome.clientId = record->clientId;
      return outcome;
    }
    if (const std::int64_t wait = throttle_.acquireIssuance(record->clientId); wait > 0) {
      TokenOutcome outcome = rateLimited(wait, tokenCause("issuanceThrottled"));
      outcome.clientId = record->clientId;
      return outcome;
    }
    std::optional<std::int64_t> now;
    if (vouched.client) now = vouched.checkedAt;  // the second the view vouched for (D-T6)
    const IssuedToken token =
        issuer_.issue({record->organizationId, record->clientId, record->scopes, record->tokensNotBefore, now});
    TokenOutcome outcome;
    outcome.answer = jsonAnswer(200, "OK", TokenIssuer::responseJson(token));
    outcome.clientId = record->clientId;
    outcome.organizationId = record->organizationId;
    outcome.cause = tokenCause("issued");
    return outcome;
  } catch (const std::exception& fault) {
    // A registry, randomness or signing fault: never disguised as an auth failure.
    return serverError(fault.what());
  } catch (...) {
    return serverError("an exception that is not a std::exception");
  }
}

}  // namespace codepayload::auth
