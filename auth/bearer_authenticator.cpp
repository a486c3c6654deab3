#include "auth/bearer_authenticator.h"
#include "common/ascii.h"
#include "common/error_codes.h"

namespace codepayload::auth {

namespace {

constexpr std::string_view kInvalidTokenChallenge = R"(Bearer realm="codepayload", error="invalid_token")";
constexpr std::string_view kLapsedChallenge =
    R"(Bearer realm="codepayload", error="insufficient_scope", error_description="subscription does not cover API clients")";

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
bool isB64Token(std::string_view token) {
  std::size_t index = 0;
  for (; index < token.size(); ++index) {
    const char c = token[index];
    const bool allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                         c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
    if (!allowed) break;
  }
  if (index == 0) return false;
  for (; index < token.size(); ++index) {
    if (token[index] != '=') return false;
  }
  return true;
}

BearerOutcome unauthorized(std::string_view challenge, std::string message, std::string_view cause) {
  BearerOutcome outcome;
  outcome.verdict = BearerOutcome::Verdict::Unauthorized;
  outcome.status = 401;
  outcome.reason = "Unauthorized";
  outcome.wwwAuthenticate = challenge;
  outcome.errorCode = error_code::kUnauthorized;
  outcome.message = std::move(message);
  outcome.cause = cause;
  return outcome;
}

BearerOutcome forbidden(std::string challenge, std::string message, std::string_view cause) {
  BearerOutcome outcome;
  outcome.verdict = BearerOutcome::Verdict::Forbidden;
  outcome.status = 403;
  outcome.reason = "Forbidden";
  outcome.wwwAuthenticate = std::move(challenge);
  outcome.errorCode = error_code::kForbidden;
  outcome.message = std::move(message);
  outcome.cause = cause;
  return outcome;
}

// Every 401 with error="invalid_token" carries this one message, whatever
// check failed: the answer must not tell a prober which check it passed (the
// signature, the key, the time, the client's standing). `cause` names the
// check for the log.
constexpr std::string_view kInvalidTokenMessage = "The access token is not valid.";

BearerOutcome invalidToken(std::string_view cause) {
  return unauthorized(kInvalidTokenChallenge, std::string(kInvalidTokenMessage), cause);
}

// The registry could not be read to judge the token: our fault, not the
// token's (D-U10), answered as every other fault of the service is.
BearerOutcome registryFault(std::string fault) {
  BearerOutcome outcome;
  outcome.verdict = BearerOutcome::Verdict::ServerError;
  outcome.status = 500;
  outcome.reason = "Internal Server Error";
  outcome.errorCode = error_code::kServerError;
  outcome.message = "The server could not handle this request; it is safe to retry.";
  outcome.cause = "registryFault";
  outcome.fault = std::move(fault);
  return outcome;
}

}  // namespace

BearerAuthenticator::BearerAuthenticator(const AccessTokenVerifier& verifier, RegistryView& view,
                                         VerifiedTokenCache& cache, UnixClock clock)
    : verifier_(verifier), view_(view), cache_(cache), clock_(std::move(clock)) {}

BearerOutcome BearerAuthenticator::authenticate(std::span<const std::string_view> authorizationValues,
                                                std::string_view requiredScope) const noexcept {
  if (authorizationValues.empty()) {
    return unauthorized(kBearerChallenge, "An access token is required: send Authorization: Bearer <token>.",
                        "missing");
  }
  if (authorizationValues.size() > 1) {
    return invalidToken("multipleHeaders");
  }
  const std::string_view value = common::trimSpaceAndTab(authorizationValues.front());
  const std::size_t schemeEnd = value.find(' ');
  if (!common::equalsIgnoringAsciiCase(value.substr(0, schemeEnd), "Bearer")) {
    return unauthorized(kBearerChallenge, "The Authorization header must use the Bearer scheme.", "notBearer");
  }
  std::string_view token = schemeEnd == std::string_view::npos ? std::string_view() : value.substr(schemeEnd);
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  if (token.empty()) return invalidToken("emptyToken");
  if (token.size() > kMaxAccessTokenLength) return invalidToken(tokenRejectionName(TokenRejection::TooLong));
  if (!isB64Token(token)) return invalidToken("badCharacters");

  const std::int64_t now = clock_();
  std::shared_ptr<const AccessTokenClaims> claims = cache_.find(token, now);
  if (claims == nullptr) {
    auto verified = std::make_shared<AccessTokenClaims>();
    const TokenRejection rejection = verifier_.verify(token, now, *verified);
    if (rejection != TokenRejection::None) return invalidToken(tokenRejectionName(rejection));
    const std::int64_t validUntil = verified->expiresAt + verifier_.settings().leewaySeconds;
    claims = std::move(verified);
    cache_.insert(token, claims, validUntil, now);
  }

  ClientStanding standing = view_.standing(claims->clientId, claims->organizationId, claims->issuedAt);
  if (standing == ClientStanding::Unknown) {
    // A token we signed for a client the view has not seen: the client was
    // created since the last background refresh. Refresh now (cheap when
    // nothing changed) so a fresh client's first request is not refused.
    try {
      view_.refreshIfChanged();
      standing = view_.standing(claims->clientId, claims->organizationId, claims->issuedAt);
    } catch (const RegistryError& error) {
      return registryFault(error.what());
    }
  }
  switch (standing) {
    case ClientStanding::Revoked:
    case ClientStanding::Unknown: return invalidToken("revoked");
    case ClientStanding::Lapsed:
      return forbidden(std::string(kLapsedChallenge), "The organization's subscription no longer covers API clients.",
                       "lapsed");
    case ClientStanding::Active: break;
  }
  if (!scopeContains(claims->scope, requiredScope)) {
    std::string challenge(R"(Bearer realm="codepayload", error="insufficient_scope", scope=")");
    challenge += requiredScope;
    challenge += '"';
    std::string message("The access token lacks the scope ");
    message += requiredScope;
    message += '.';
    return forbidden(std::move(challenge), std::move(message), "insufficientScope");
  }

  BearerOutcome outcome;
  outcome.verdict = BearerOutcome::Verdict::Allowed;
  outcome.status = 200;
  outcome.reason = "OK";
  outcome.cause = "ok";
  outcome.claims = std::move(claims);
  return outcome;
}

}  // namespace codepayload::auth
