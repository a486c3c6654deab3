// fuzz_token_request: arbitrary bytes as a POST /oauth/token request, fed to
// auth::TokenEndpoint::handle (the endpoint's pure decision function) over a
// real SQLite registry (AuthFuzzFixture).
//
// Input layout (text, so seeds are readable files):
//   line 1: the shape; its first three bytes, each taken modulo 4, are the
//           number of Authorization values, the number of Content-Type values,
//           and how many extra times the same request is sent (each input gets
//           a fresh throttle of 1 failure per address and per client and 1
//           token per client, so the repeats reach the 429 answers);
//   then one line per Authorization value, one per Content-Type value, one
//   for the query string; everything after that is the body. Absent lines are
//   empty. An Authorization line starting with '@' becomes
//   "Basic " + base64(the rest); in it, and in the query and the body, the
//   fixture's placeholders ($ACTIVE_ID, $ACTIVE_SECRET, $LAPSED_ID, ...) are
//   replaced by the real client ids and secrets.
//
// Invariants (abort on violation), for every answer:
//  - (status, error) is one of the spec's token table: 400 invalid_request,
//    400 unsupported_grant_type, 401 invalid_client, 400 unauthorized_client,
//    plus 429 rate_limited (the brute-force throttle) and 200; never 405 (the
//    method is POST) nor 500 (the registry is healthy); 429 never on the
//    first send;
//  - an error body is exactly {"error":"<code>","error_description":"<text>"},
//    the text one of auth::token_error_descriptions (one for every 401, one for
//    every 429); the headers start with
//    Content-Type: application/json, Cache-Control: no-store, Pragma: no-cache;
//    a 401 adds WWW-Authenticate: Basic realm="codepayload", a 429 Retry-After
//    of 1 to 60 seconds; the reason phrase matches the status;
//  - no answer contains any client's secret;
//  - 200 only when the Authorization values are Basic credentials of an
//    active client of a covered organization (the fixture's active and
//    unscoped clients), with a TokenResponse whose token verifies for that
//    client, its organization and its scopes; unauthorized_client only for the
//    client of the lapsed organization; never invalid_client for those three.
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "auth/access_token_verifier.h"
#include "auth/auth_throttle.h"
#include "auth/base64.h"
#include "auth/basic_credentials.h"
#include "auth/token_endpoint.h"
#include "auth/token_issuer.h"
#include "tests/fuzz/auth_fuzz_fixture.h"
#include "tests/fuzz/fuzz_check.h"

namespace codepayload::fuzz {
namespace {

constexpr std::string_view kClientAddress = "192.0.2.7";
constexpr std::int64_t kThrottleWindowSeconds = 60;

struct Harness {
  AuthFuzzFixture fixture;
  // The fixture's clock stands still, so the view vouches for every request:
  // the right secret of an active client is answered from memory, anything
  // else from the registry.
  auth::RegistryView view{fixture.registry(), AuthFuzzFixture::clock()};
  auth::TokenIssuer issuer{fixture.keys(), auth::TokenSettings{}, AuthFuzzFixture::clock()};
  auth::AccessTokenVerifier verifier{fixture.keys(), auth::TokenSettings{}};
  simdjson::dom::parser parser;
};

Harness* harness = nullptr;

// The input split as the layout above says.
struct SplitRequest {
  std::vector<std::string> authorizationValues;
  std::vector<std::string> contentTypeValues;
  std::string query;
  std::string body;
  int sends = 1;
};

std::string_view takeLine(std::string_view& rest) {
  const std::size_t end = rest.find('\n');
  const std::string_view line = rest.substr(0, end);
  rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  return line;
}

SplitRequest split(std::string_view input) {
  SplitRequest request;
  const std::string_view shape = takeLine(input);
  auto count = [&](std::size_t index) {
    return index < shape.size() ? static_cast<unsigned char>(shape[index]) % 4 : 0;
  };
  const int authorizations = count(0);
  const int contentTypes = count(1);
  request.sends = 1 + count(2);
  for (int index = 0; index < authorizations; ++index) {
    const std::string_view line = takeLine(input);
    if (line.starts_with('@')) {
      request.authorizationValues.push_back("Basic " + auth::encodeBase64(harness->fixture.substitute(line.substr(1))));
    } else {
      request.authorizationValues.emplace_back(line);
    }
  }
  for (int index = 0; index < contentTypes; ++index) request.contentTypeValues.emplace_back(takeLine(input));
  request.query = harness->fixture.substitute(takeLine(input));
  request.body = harness->fixture.substitute(input);
  return request;
}

// The fixture client whose Basic credentials the Authorization values are, or nullptr.
const FuzzClient* presentedClient(const std::vector<std::string_view>& authorizations) {
  auth::BasicCredentials credentials;
  if (auth::parseBasicCredentials(authorizations, credentials) != auth::BasicCredentialsError::Ok) return nullptr;
  return harness->fixture.findClient(credentials.clientId, credentials.clientSecret);
}

std::string_view reasonOf(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 429: return "Too Many Requests";
  }
  return "";
}

bool isSecondsWithinWindow(std::string_view text) {
  if (text.empty() || text.size() > 2 || text.find_first_not_of("0123456789") != std::string_view::npos) return false;
  const int seconds = std::stoi(std::string(text));
  return seconds >= 1 && seconds <= kThrottleWindowSeconds;
}

// A 400 of request syntax: invalid_request or unsupported_grant_type with one of
// the endpoint's descriptions.
bool isSyntaxRefusal(std::string_view body) {
  namespace text = auth::token_error_descriptions;
  for (const std::string_view description :
       {text::kTwoContentTypes, text::kNotForm, text::kBodyTooLarge, text::kQueryTooLong, text::kBadEscape,
        text::kTooManyFields, text::kDuplicateGrantType, text::kMissingGrantType, text::kMultipleAuthMethods,
        text::kDuplicateScope, text::kBadScope}) {
    if (body == auth::tokenErrorBody("invalid_request", description)) return true;
  }
  return body == auth::tokenErrorBody("unsupported_grant_type", text::kUnsupportedGrantType);
}

void checkTokenResponse(const auth::HttpAnswer& answer, const FuzzClient& client) {
  const std::string& body = answer.body;
  simdjson::dom::element response;
  require(harness->parser.parse(body).get(response) == simdjson::SUCCESS, "a TokenResponse is JSON", body);
  simdjson::dom::object object;
  require(response.get_object().get(object) == simdjson::SUCCESS && object.size() == 3,
          "a TokenResponse has three members", body);
  std::string_view token;
  std::string_view type;
  std::int64_t expiresIn = 0;
  require(object.at_key("access_token").get_string().get(token) == simdjson::SUCCESS, "access_token is a string", body);
  require(object.at_key("token_type").get_string().get(type) == simdjson::SUCCESS && type == "Bearer",
          "token_type is Bearer", body);
  require(object.at_key("expires_in").get_int64().get(expiresIn) == simdjson::SUCCESS && expiresIn == 3600,
          "expires_in is 3600", body);
  auth::AccessTokenClaims claims;
  require(harness->verifier.verify(token, AuthFuzzFixture::kNow, claims) == auth::TokenRejection::None,
          "the issued token verifies", body);
  require(claims.clientId == client.id && claims.organizationId == client.organizationId,
          "the issued token names the authenticated client and its organization", body);
  require(claims.scope == client.scope, "the issued token carries the client's scopes", body);
}

void checkAnswer(const auth::TokenOutcome& outcome, const std::vector<std::string_view>& authorizations, int send) {
  const auth::HttpAnswer& answer = outcome.answer;
  const std::string shown = std::to_string(answer.status) + " " + answer.body;
  require(answer.reason == reasonOf(answer.status), "the status is 200, 400, 401 or 429 with its reason", shown);
  require(answer.headers.size() >= 3 && answer.headers[0] == auth::HttpHeader{"Content-Type", "application/json"} &&
              answer.headers[1] == auth::HttpHeader{"Cache-Control", "no-store"} &&
              answer.headers[2] == auth::HttpHeader{"Pragma", "no-cache"},
          "every answer starts with the JSON and no-store headers", shown);
  require(!harness->fixture.containsSecret(answer.body), "no answer repeats a client secret", shown);
  for (const auth::HttpHeader& header : answer.headers) {
    require(!harness->fixture.containsSecret(header.value), "no header repeats a client secret", shown);
  }

  const FuzzClient* client = presentedClient(authorizations);
  const AuthFuzzFixture& fixture = harness->fixture;
  const bool inGoodStanding = client == &fixture.active() || client == &fixture.unscoped();
  switch (answer.status) {
    case 200:
      require(answer.headers.size() == 3, "a 200 has only the three standard headers", shown);
      require(inGoodStanding, "only an active client of a covered organization gets a token", shown);
      require(outcome.clientId == client->id, "a 200 names the authenticated client", shown);
      checkTokenResponse(answer, *client);
      return;
    case 400:
      require(answer.headers.size() == 3, "a 400 has only the three standard headers", shown);
      if (answer.body ==
          auth::tokenErrorBody("unauthorized_client", auth::token_error_descriptions::kUnauthorizedClient)) {
        require(client == &fixture.lapsed(), "only the lapsed organization's client gets unauthorized_client", shown);
        return;
      }
      require(isSyntaxRefusal(answer.body), "a 400 is invalid_request, unsupported_grant_type or unauthorized_client",
              shown);
      return;
    case 401:
      require(answer.body == auth::tokenErrorBody("invalid_client", auth::token_error_descriptions::kInvalidClient),
              "a 401 is invalid_client, with the one description of every cause", shown);
      require(answer.headers.size() == 4 &&
                  answer.headers[3] == auth::HttpHeader{"WWW-Authenticate", std::string(auth::kBasicChallenge)},
              "a 401 carries the Basic challenge", shown);
      require(!inGoodStanding && client != &fixture.lapsed(),
              "the right secret of an active client is never invalid_client", shown);
      return;
    case 429: {
      require(send > 0, "the first send is never throttled", shown);
      require(answer.body == auth::tokenErrorBody("rate_limited", auth::token_error_descriptions::kRateLimited),
              "a 429 is rate_limited", shown);
      require(answer.headers.size() == 4 && answer.headers[3].name == "Retry-After", "a 429 carries Retry-After",
              shown);
      require(isSecondsWithinWindow(answer.headers[3].value), "Retry-After is 1 to 60 seconds",
              answer.headers[3].value);
      return;
    }
  }
  invariantViolated("the status is one of the token table's", shown);
}

}  // namespace
}  // namespace codepayload::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  codepayload::fuzz::harness = new codepayload::fuzz::Harness();
  // libFuzzer ends a run with exit(): remove the fixture's temporary directory then.
  std::atexit([] { delete codepayload::fuzz::harness; });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace codepayload;
  const fuzz::SplitRequest split = fuzz::split(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::vector<std::string_view> authorizations(split.authorizationValues.begin(),
                                                     split.authorizationValues.end());
  const std::vector<std::string_view> contentTypes(split.contentTypeValues.begin(), split.contentTypeValues.end());

  auth::ThrottleSettings limits;
  limits.failuresPerAddress = 1;
  limits.failuresPerClient = 1;
  limits.tokensPerClient = 1;
  limits.windowSeconds = fuzz::kThrottleWindowSeconds;
  limits.maxTrackedKeys = 64;
  auth::AuthThrottle throttle(limits, fuzz::AuthFuzzFixture::clock());
  fuzz::Harness& harness = *fuzz::harness;
  const auth::TokenEndpoint endpoint(harness.view, harness.fixture.registry(), harness.fixture.hasher(), harness.issuer,
                                     throttle);

  auth::TokenRequest request;
  request.method = "POST";
  request.contentTypes = contentTypes;
  request.authorizations = authorizations;
  request.query = split.query;
  request.body = split.body;
  request.clientAddress = fuzz::kClientAddress;
  for (int send = 0; send < split.sends; ++send) fuzz::checkAnswer(endpoint.handle(request), authorizations, send);
  return 0;
}
