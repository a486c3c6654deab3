// TE-*, CA-*, ES-*, SS-05 and RL-* against the token endpoint decision:
// exact status, reason, headers and body bytes.
#include "auth/token_endpoint.h"

#include <gtest/gtest.h>

#include <cctype>
#include <functional>
#include <memory>

#include "auth/access_token_verifier.h"
#include "auth/base64.h"
#include "auth/sql_client_registry.h"
#include "auth_test_support.h"
#include "tests/support/scratch_registry.h"

namespace codepayload::auth {
namespace {

using testing::basic;
using testing::basicRaw;
using testing::FakeClock;
using testing::formEncode;
using testing::TempDir;

struct Request {
  std::string method = "POST";
  std::vector<std::string> contentTypes = {"application/x-www-form-urlencoded"};
  std::vector<std::string> authorizations;
  std::string query;
  std::string body = "grant_type=client_credentials";
  std::string address = "192.0.2.1";
};

const std::vector<HttpHeader> kJsonHeaders = {
    {"Content-Type", "application/json"}, {"Cache-Control", "no-store"}, {"Pragma", "no-cache"}};

namespace text = token_error_descriptions;

HttpAnswer expectedError(int status, std::string reason, std::string error, std::string_view description,
                         std::vector<HttpHeader> extra = {}) {
  HttpAnswer answer;
  answer.status = status;
  answer.reason = std::move(reason);
  answer.headers = kJsonHeaders;
  answer.headers.insert(answer.headers.end(), extra.begin(), extra.end());
  answer.body = R"({"error":")" + error + R"(","error_description":")" + std::string(description) + R"("})";
  return answer;
}

const HttpAnswer kInvalidClient =
    expectedError(401, "Unauthorized", "invalid_client",
                  "client authentication failed: send the client id and secret with HTTP Basic authentication",
                  {{"WWW-Authenticate", R"(Basic realm="codepayload")"}});
const HttpAnswer kMultipleAuthMethods = expectedError(
    400, "Bad Request", "invalid_request",
    "send the client id and secret only with HTTP Basic authentication, not also as client_id or client_secret "
    "parameters");
const HttpAnswer kUnsupportedGrantType =
    expectedError(400, "Bad Request", "unsupported_grant_type", "the only grant_type is client_credentials");
const HttpAnswer kUnauthorizedClient = expectedError(400, "Bad Request", "unauthorized_client",
                                                     "the organization's subscription does not cover API clients");
const HttpAnswer kServerError = expectedError(500, "Internal Server Error", "server_error",
                                              "the server could not answer this request; it is safe to retry");

void expectAnswer(const HttpAnswer& actual, const HttpAnswer& expected) {
  EXPECT_EQ(actual.status, expected.status);
  EXPECT_EQ(actual.reason, expected.reason);
  EXPECT_EQ(actual.headers, expected.headers);
  EXPECT_EQ(actual.body, expected.body);
}

ThrottleSettings generousThrottle() {
  ThrottleSettings settings;
  settings.failuresPerAddress = 1000;
  settings.failuresPerClient = 1000;
  settings.tokensPerClient = 1000;
  return settings;
}

class TokenEndpointTest : public ::testing::Test {
 protected:
  // The signing key is EC (ES256, the default of a new data directory) unless
  // a test asks for RSA: the endpoint itself does not depend on the algorithm.
  explicit TokenEndpointTest(ThrottleSettings throttleSettings = generousThrottle(),
                             SigningAlgorithm algorithm = SigningAlgorithm::ES256)
      : hasher_(std::string(32, 'p')),
        database_(codepayload::testing::freshRegistryDatabase(dir_.path())),
        stored_(database_, testing::sourceRegistryMigrations(), hasher_, clock_.clock()),
        registry_(stored_),
        keys_(testing::sharedTestKey(algorithm)),
        issuer_(keys_, TokenSettings{}, clock_.clock()),
        throttle_(throttleSettings, clock_.clock()),
        view_(registry_, clock_.clock()),
        endpoint_(view_, registry_, hasher_, issuer_, throttle_) {
    const Organization acme = stored_.createOrganization("Acme", Plan::Starter);
    const CreatedClient client = stored_.createClient(acme.id, "erp", {"write:codes"}, "tester");
    clientId_ = client.client.id;
    secret_ = client.secret;
    organizationId_ = acme.id;
    const CreatedClient blocked = stored_.createClient(acme.id, "blocked", {"write:codes"}, "tester");
    blockedId_ = blocked.client.id;
    blockedSecret_ = blocked.secret;
    stored_.setClientState(blockedId_, ClientState::Blocked);
    const CreatedClient deleted = stored_.createClient(acme.id, "deleted", {"write:codes"}, "tester");
    deletedId_ = deleted.client.id;
    deletedSecret_ = deleted.secret;
    stored_.setClientState(deletedId_, ClientState::Deleted);
    const Organization lapsed = stored_.createOrganization("Lapsed", Plan::Pro);
    const CreatedClient lapsedClient = stored_.createClient(lapsed.id, "lapsed", {"write:codes"}, "tester");
    lapsedId_ = lapsedClient.client.id;
    lapsedSecret_ = lapsedClient.secret;
    stored_.setSubscription(lapsed.id, Subscription::Inactive);
    seeChanges();
  }

  // What the server's refresher does within 250 ms of a registry change.
  void seeChanges() { ASSERT_TRUE(view_.refreshIfChanged()); }

  TokenOutcome send(const Request& request) {
    const std::vector<std::string_view> contentTypes(request.contentTypes.begin(), request.contentTypes.end());
    const std::vector<std::string_view> authorizations(request.authorizations.begin(), request.authorizations.end());
    TokenRequest tokenRequest;
    tokenRequest.method = request.method;
    tokenRequest.contentTypes = contentTypes;
    tokenRequest.authorizations = authorizations;
    tokenRequest.query = request.query;
    tokenRequest.body = request.body;
    tokenRequest.clientAddress = request.address;
    return endpoint_.handle(tokenRequest);
  }

  Request valid() const {
    Request request;
    request.authorizations = {basic(clientId_, secret_)};
    return request;
  }

  // A 200 whose token verifies and belongs to `clientId`.
  void expectToken(const TokenOutcome& outcome, const std::string& clientId) {
    EXPECT_EQ(outcome.answer.status, 200);
    EXPECT_EQ(outcome.answer.reason, "OK");
    EXPECT_EQ(outcome.answer.headers, kJsonHeaders);
    EXPECT_EQ(outcome.clientId, clientId);
    EXPECT_EQ(outcome.cause, "issued");
    const std::string& body = outcome.answer.body;
    constexpr std::string_view kPrefix = R"({"access_token":")";
    constexpr std::string_view kSuffix = R"(","token_type":"Bearer","expires_in":3600})";
    ASSERT_TRUE(body.starts_with(kPrefix)) << body;
    ASSERT_TRUE(body.ends_with(kSuffix)) << body;
    const std::string token = body.substr(kPrefix.size(), body.size() - kPrefix.size() - kSuffix.size());
    std::string header;
    ASSERT_TRUE(decodeBase64UrlStrict(token.substr(0, token.find('.')), header));
    EXPECT_TRUE(header.starts_with(R"({"alg":")" + keys_.active().algorithmName() + "\",")) << header;
    const AccessTokenVerifier verifier(keys_, TokenSettings{});
    AccessTokenClaims claims;
    ASSERT_EQ(verifier.verify(token, clock_.now(), claims), TokenRejection::None);
    EXPECT_EQ(claims.clientId, clientId);
    EXPECT_EQ(claims.scope, "write:codes");
  }

  TempDir dir_;
  FakeClock clock_;
  SecretHasher hasher_;
  RegistryDatabase database_;
  SqlClientRegistry stored_;
  testing::FaultInjectingRegistry registry_;
  SigningKeySet keys_;
  TokenIssuer issuer_;
  AuthThrottle throttle_;
  RegistryView view_;
  TokenEndpoint endpoint_;
  std::string clientId_, secret_, organizationId_;
  std::string blockedId_, blockedSecret_, deletedId_, deletedSecret_, lapsedId_, lapsedSecret_;
  const std::string unknownId_ = "svc_client_000000000000000000000000";
};

TEST_F(TokenEndpointTest, TE01_IssuesATokenForValidClientCredentials) { expectToken(send(valid()), clientId_); }

TEST_F(TokenEndpointTest, ATokenIssuedInTheSecondOfABlockIsDatedAfterTheBlock) {
  // A block revokes tokens with iat up to the block's second; a client
  // unblocked within that second gets a token dated the second after, so it is
  // not revoked with the earlier ones.
  const auto issuedAt = [&](const TokenOutcome& outcome) {
    const std::string& body = outcome.answer.body;
    const std::size_t start = body.find(":\"") + 2;
    const AccessTokenVerifier verifier(keys_, TokenSettings{});
    AccessTokenClaims claims;
    EXPECT_EQ(verifier.verify(body.substr(start, body.find('"', start) - start), clock_.now(), claims),
              TokenRejection::None);
    return claims.issuedAt;
  };
  EXPECT_EQ(issuedAt(send(valid())), clock_.now());
  stored_.setClientState(clientId_, ClientState::Blocked);
  seeChanges();
  expectAnswer(send(valid()).answer, kInvalidClient);
  stored_.setClientState(clientId_, ClientState::Active);
  seeChanges();
  const TokenOutcome sameSecond = send(valid());
  expectToken(sameSecond, clientId_);
  EXPECT_EQ(issuedAt(sameSecond), clock_.now() + 1);
  clock_.advance(1);
  EXPECT_EQ(issuedAt(send(valid())), clock_.now());
  clock_.advance(1);
  EXPECT_EQ(issuedAt(send(valid())), clock_.now());
}

class TokenEndpointRsaKeyTest : public TokenEndpointTest {
 protected:
  TokenEndpointRsaKeyTest() : TokenEndpointTest(generousThrottle(), SigningAlgorithm::RS256) {}
};

TEST_F(TokenEndpointRsaKeyTest, TE01_IssuesATokenForValidClientCredentials) {
  ASSERT_EQ(keys_.active().algorithm(), SigningAlgorithm::RS256);
  expectToken(send(valid()), clientId_);
}

TEST_F(TokenEndpointTest, HeaderLooksUpTheFirstHeaderOfAName) {
  const HttpAnswer answer = send(Request{}).answer;
  EXPECT_EQ(answer.header("WWW-Authenticate"), R"(Basic realm="codepayload")");
  EXPECT_EQ(answer.header("Cache-Control"), "no-store");
  EXPECT_EQ(answer.header("cache-control"), "");  // exact spelling
  EXPECT_EQ(answer.header("Allow"), "");
}

TEST_F(TokenEndpointTest, TE02_GrantTypeInTheQueryWithAnEmptyBody) {
  Request request = valid();
  request.contentTypes = {};
  request.body = "";
  request.query = "grant_type=client_credentials";
  expectToken(send(request), clientId_);
  request.contentTypes = {"application/x-www-form-urlencoded"};
  expectToken(send(request), clientId_);
}

TEST_F(TokenEndpointTest, TE03_CredentialsInTheQueryWithoutBasicAreInvalidClient) {
  Request request;
  request.query = "client_id=" + clientId_ + "&client_secret=" + secret_ + "&grant_type=client_credentials";
  request.body = "";
  request.contentTypes = {};
  const TokenOutcome outcome = send(request);
  expectAnswer(outcome.answer, kInvalidClient);
  EXPECT_EQ(outcome.clientId, "");
  EXPECT_EQ(outcome.cause, "badCredentials");
}

struct SyntaxCase {
  const char* name;
  std::string query;
  std::string body;
  std::vector<std::string> contentTypes;
  std::string expectedError;  // "" -> a token
  std::string cause;
  std::string_view description;
};

const std::vector<std::string> kForm = {"application/x-www-form-urlencoded"};

class TokenEndpointSyntax : public TokenEndpointTest, public ::testing::WithParamInterface<SyntaxCase> {};

TEST_P(TokenEndpointSyntax, Answer) {
  const SyntaxCase& row = GetParam();
  Request request = valid();
  request.query = row.query;
  request.body = row.body;
  request.contentTypes = row.contentTypes;
  const TokenOutcome outcome = send(request);
  if (row.expectedError.empty()) {
    expectToken(outcome, clientId_);
    return;
  }
  expectAnswer(outcome.answer, expectedError(400, "Bad Request", row.expectedError, row.description));
  EXPECT_EQ(outcome.cause, row.cause);
  EXPECT_EQ(outcome.clientId, "");
  EXPECT_EQ(registry_.authenticationLookups, 0);  // syntax is checked before any client lookup (D-K13)
}

std::string fields(int count) {
  std::string body = "grant_type=client_credentials";
  for (int index = 1; index < count; ++index) body += "&f" + std::to_string(index) + "=v";
  return body;
}

INSTANTIATE_TEST_SUITE_P(
    Rows, TokenEndpointSyntax,
    ::testing::Values(
        SyntaxCase{"TE04_noGrantType", "", "", kForm, "invalid_request", "missingGrantType", text::kMissingGrantType},
        SyntaxCase{"TE04_otherFieldsOnly", "", "foo=bar", kForm, "invalid_request", "missingGrantType",
                   text::kMissingGrantType},
        SyntaxCase{"TE05_emptyGrantType", "", "grant_type=", kForm, "invalid_request", "missingGrantType",
                   text::kMissingGrantType},
        SyntaxCase{"TE05_grantTypeWithoutEquals", "", "grant_type", kForm, "invalid_request", "missingGrantType",
                   text::kMissingGrantType},
        SyntaxCase{"TE06_password", "", "grant_type=password", kForm, "unsupported_grant_type", "unsupportedGrantType",
                   text::kUnsupportedGrantType},
        SyntaxCase{"TE06_authorizationCode", "", "grant_type=authorization_code", kForm, "unsupported_grant_type",
                   "unsupportedGrantType", text::kUnsupportedGrantType},
        SyntaxCase{"TE06_refreshToken", "", "grant_type=refresh_token", kForm, "unsupported_grant_type",
                   "unsupportedGrantType", text::kUnsupportedGrantType},
        SyntaxCase{"TE06_jwtBearer", "", "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer", kForm,
                   "unsupported_grant_type", "unsupportedGrantType", text::kUnsupportedGrantType},
        SyntaxCase{"TE06_foo", "", "grant_type=foo", kForm, "unsupported_grant_type", "unsupportedGrantType",
                   text::kUnsupportedGrantType},
        SyntaxCase{"TE06_inQuery", "grant_type=password", "", kForm, "unsupported_grant_type", "unsupportedGrantType",
                   text::kUnsupportedGrantType},
        SyntaxCase{"TE07_upperCaseValue", "", "grant_type=CLIENT_CREDENTIALS", kForm, "unsupported_grant_type",
                   "unsupportedGrantType", text::kUnsupportedGrantType},
        SyntaxCase{"TE07_trailingSpace", "", "grant_type=client_credentials%20", kForm, "unsupported_grant_type",
                   "unsupportedGrantType", text::kUnsupportedGrantType},
        SyntaxCase{"TE07_trailingPlus", "", "grant_type=client_credentials+", kForm, "unsupported_grant_type",
                   "unsupportedGrantType", text::kUnsupportedGrantType},
        SyntaxCase{"TE07_trailingNul", "", "grant_type=client_credentials%00", kForm, "unsupported_grant_type",
                   "unsupportedGrantType", text::kUnsupportedGrantType},
        SyntaxCase{"TE07_encodedUnderscore", "", "grant_type=client%5Fcredentials", kForm, "", "", ""},
        SyntaxCase{"TE08_upperCaseName", "", "GRANT_TYPE=client_credentials", kForm, "invalid_request",
                   "missingGrantType", text::kMissingGrantType},
        SyntaxCase{"TE09_duplicateSameValue", "", "grant_type=client_credentials&grant_type=client_credentials", kForm,
                   "invalid_request", "duplicateGrantType", text::kDuplicateGrantType},
        SyntaxCase{"TE10_duplicateDifferentValues", "", "grant_type=client_credentials&grant_type=password", kForm,
                   "invalid_request", "duplicateGrantType", text::kDuplicateGrantType},
        SyntaxCase{"TE10_duplicateWithEmpty", "", "grant_type=&grant_type=client_credentials", kForm, "invalid_request",
                   "duplicateGrantType", text::kDuplicateGrantType},
        SyntaxCase{"TE11_queryAndConflictingBody", "grant_type=client_credentials", "grant_type=password", kForm,
                   "invalid_request", "duplicateGrantType", text::kDuplicateGrantType},
        SyntaxCase{"TE12_queryAndSameBody", "grant_type=client_credentials", "grant_type=client_credentials", kForm,
                   "invalid_request", "duplicateGrantType", text::kDuplicateGrantType},
        SyntaxCase{"TE13_noContentTypeWithBody",
                   "",
                   "grant_type=client_credentials",
                   {},
                   "invalid_request",
                   "badContentType",
                   text::kNotForm},
        SyntaxCase{"TE14_json",
                   "",
                   R"({"grant_type":"client_credentials"})",
                   {"application/json"},
                   "invalid_request",
                   "badContentType",
                   text::kNotForm},
        SyntaxCase{"TE15_textPlain",
                   "",
                   "grant_type=client_credentials",
                   {"text/plain"},
                   "invalid_request",
                   "badContentType",
                   text::kNotForm},
        SyntaxCase{"TE16_multipart",
                   "",
                   "--x\r\nContent-Disposition: form-data; name=\"grant_type\"\r\n\r\nclient_credentials\r\n--x--\r\n",
                   {"multipart/form-data; boundary=x"},
                   "invalid_request",
                   "badContentType",
                   text::kNotForm},
        SyntaxCase{"twoContentTypes",
                   "",
                   "grant_type=client_credentials",
                   {"application/x-www-form-urlencoded", "application/x-www-form-urlencoded"},
                   "invalid_request",
                   "badContentType",
                   text::kTwoContentTypes},
        SyntaxCase{"formTypeWithSuffix",
                   "",
                   "grant_type=client_credentials",
                   {"application/x-www-form-urlencodedx"},
                   "invalid_request",
                   "badContentType",
                   text::kNotForm},
        SyntaxCase{"TE17_charsetUtf8",
                   "",
                   "grant_type=client_credentials",
                   {"application/x-www-form-urlencoded; charset=UTF-8"},
                   "",
                   "",
                   ""},
        SyntaxCase{"TE17_upperCaseMediaType",
                   "",
                   "grant_type=client_credentials",
                   {"APPLICATION/X-WWW-FORM-URLENCODED"},
                   "",
                   "",
                   ""},
        SyntaxCase{"TE17_D7_otherCharsetIgnored",
                   "",
                   "grant_type=client_credentials",
                   {"application/x-www-form-urlencoded;charset=ISO-8859-1"},
                   "",
                   "",
                   ""},
        SyntaxCase{"TE17_spacesAroundMediaType",
                   "",
                   "grant_type=client_credentials",
                   {" application/x-www-form-urlencoded ; charset=utf-8"},
                   "",
                   "",
                   ""},
        SyntaxCase{"TE18_unknownParametersIgnored", "", "grant_type=client_credentials&foo=bar&x=", kForm, "", "", ""},
        SyntaxCase{"TE18_unknownQueryParametersIgnored", "utm=1", "grant_type=client_credentials", kForm, "", "", ""},
        SyntaxCase{"TE19_scopeWithinTheClientsScopes", "", "grant_type=client_credentials&scope=write%3Acodes", kForm,
                   "", "", ""},
        SyntaxCase{"TE19_otherScopeIgnored", "", "grant_type=client_credentials&scope=admin", kForm, "", "", ""},
        SyntaxCase{"TE19_emptyScopeIgnored", "", "grant_type=client_credentials&scope=", kForm, "", "", ""},
        SyntaxCase{"TE19_duplicateScope", "", "grant_type=client_credentials&scope=a&scope=b", kForm, "invalid_request",
                   "badScope", text::kDuplicateScope},
        SyntaxCase{"TE19_scopeInQueryAndBody", "scope=a", "grant_type=client_credentials&scope=a", kForm,
                   "invalid_request", "badScope", text::kDuplicateScope},
        SyntaxCase{"TE19_malformedScope", "", "grant_type=client_credentials&scope=a++b", kForm, "invalid_request",
                   "badScope", text::kBadScope},
        SyntaxCase{"TE19_scopeWithQuote", "", "grant_type=client_credentials&scope=%22", kForm, "invalid_request",
                   "badScope", text::kBadScope},
        SyntaxCase{"TE20_badEscapeInValue", "", "grant_type=%zz", kForm, "invalid_request", "badForm",
                   text::kBadEscape},
        SyntaxCase{"TE20_trailingPercent", "", "grant_type=client_credentials%", kForm, "invalid_request", "badForm",
                   text::kBadEscape},
        SyntaxCase{"TE20_percentInName", "", "grant_type=client_credentials&a%=1", kForm, "invalid_request", "badForm",
                   text::kBadEscape},
        SyntaxCase{"TE20_badEscapeInQuery", "x=%G0", "grant_type=client_credentials", kForm, "invalid_request",
                   "badForm", text::kBadEscape},
        SyntaxCase{"TE21_sixteenFields", "", fields(16), kForm, "", "", ""},
        SyntaxCase{"TE21_seventeenFields", "", fields(17), kForm, "invalid_request", "badForm", text::kTooManyFields},
        SyntaxCase{"TE21_hundredAndOneFields", "", fields(101), kForm, "invalid_request", "badForm",
                   text::kTooManyFields},
        SyntaxCase{"TE22_bodyAtTheLimit", "", "grant_type=client_credentials&pad=" + std::string(8192 - 34, 'p'), kForm,
                   "", "", ""},
        SyntaxCase{"TE22_bodyOverTheLimit", "", "grant_type=client_credentials&pad=" + std::string(8192 - 33, 'p'),
                   kForm, "invalid_request", "badForm", text::kBodyTooLarge},
        SyntaxCase{"TE22_oneMebibyte", "", "grant_type=client_credentials&pad=" + std::string(1 << 20, 'p'), kForm,
                   "invalid_request", "badForm", text::kBodyTooLarge},
        SyntaxCase{"queryOverTheLimit", "pad=" + std::string(4093, 'p'), "grant_type=client_credentials", kForm,
                   "invalid_request", "badForm", text::kQueryTooLong},
        SyntaxCase{"TE26_byteOrderMark", "", "\xEF\xBB\xBFgrant_type=client_credentials", kForm, "invalid_request",
                   "missingGrantType", text::kMissingGrantType}),
    [](const auto& row) { return std::string(row.param.name); });

TEST_F(TokenEndpointTest, TE25_D11_OtherMethodsGet405WithAllow) {
  for (const char* method : {"GET", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "post"}) {
    Request request = valid();
    request.method = method;
    const TokenOutcome outcome = send(request);
    expectAnswer(outcome.answer, expectedError(405, "Method Not Allowed", "invalid_request",
                                               "the token endpoint accepts only POST", {{"Allow", "POST"}}));
    EXPECT_EQ(outcome.cause, "methodNotAllowed");
  }
  EXPECT_EQ(registry_.authenticationLookups, 0);
}

TEST_F(TokenEndpointTest, D12_ClientCredentialsInParametersAlongsideBasicAreInvalidRequest) {
  // CA-22, CA-23: two authentication methods; never authenticates as the body id.
  for (const auto& [query, body] : std::vector<std::pair<std::string, std::string>>{
           {"", "grant_type=client_credentials&client_id=" + clientId_ + "&client_secret=" + secret_},
           {"", "grant_type=client_credentials&client_id=svc_client_other"},
           {"", "grant_type=client_credentials&client_secret=x"},
           {"client_id=" + clientId_, "grant_type=client_credentials"},
           {"client_secret=" + secret_, "grant_type=client_credentials"}}) {
    Request request = valid();
    request.query = query;
    request.body = body;
    const TokenOutcome outcome = send(request);
    expectAnswer(outcome.answer, kMultipleAuthMethods);
    EXPECT_EQ(outcome.cause, "multipleAuthMethods");
  }
  // Without an Authorization header they are ignored, and Basic is missing (D-K12).
  Request bodyOnly;
  bodyOnly.body = "grant_type=client_credentials&client_id=" + clientId_ + "&client_secret=" + secret_;
  expectAnswer(send(bodyOnly).answer, kInvalidClient);
}

struct CredentialRow {
  std::string name;
  std::vector<std::string> authorizations;
};

// Every way client authentication can fail: all must give the same bytes.
TEST_F(TokenEndpointTest, ES01_CA_EveryAuthenticationFailureIsByteIdenticalAndDoesTheSameWork) {
  std::string wrongFirst = secret_;
  wrongFirst[0] = wrongFirst[0] == 'a' ? 'b' : 'a';
  std::string wrongLast = secret_;
  wrongLast.back() = wrongLast.back() == 'a' ? 'b' : 'a';
  const std::string valid = basic(clientId_, secret_);
  const std::vector<CredentialRow> rows = {
      {"ES01a_unknownClient", {basic(unknownId_, secret_)}},
      {"ES01b_badPrefix", {basic("svc_other_" + clientId_.substr(11), secret_)}},
      {"ES01c_wrongFirstCharacter", {basic(clientId_, wrongFirst)}},
      {"ES01d_wrongLastCharacter", {basic(clientId_, wrongLast)}},
      {"ES01e_anotherClientsSecret", {basic(clientId_, blockedSecret_)}},
      {"ES01f_blockedClient", {basic(blockedId_, blockedSecret_)}},
      {"ES01g_deletedClient", {basic(deletedId_, deletedSecret_)}},
      {"ES01i_CA01_missingHeader", {}},
      {"CA02_bearer", {"Bearer " + secret_}},
      {"CA03_digest", {"Digest username=\"" + clientId_ + "\""}},
      {"CA05_schemeOnly", {"Basic"}},
      {"CA05_schemeAndSpace", {"Basic "}},
      {"CA06_bangs", {"Basic !!!!"}},
      {"CA07_trailingGarbage", {valid + "$$$garbage"}},
      {"CA08_embeddedSpace", {std::string(valid).insert(12, " ")}},
      {"CA09_unpadded", {"Basic " + encodeBase64(clientId_ + ":" + secret_ + "x").substr(0, 107)}},
      {"CA10_noColon", {basicRaw(clientId_)}},
      {"CA11_emptySecret", {basicRaw(clientId_ + ":")}},
      {"CA12_emptyId", {basicRaw(":" + secret_)}},
      {"CA16_badEscape", {basicRaw(clientId_ + ":%zz")}},
      {"CA16_badEscapeInId", {basicRaw("%:x")}},
      {"CA17_nulAfterSecret", {basic(clientId_, secret_ + std::string("\0x", 2))}},
      {"CA17_nulAfterId", {basic(clientId_ + std::string(1, '\0'), secret_)}},
      {"CA17_dataAfterPadding", {"Basic " + encodeBase64(clientId_ + ":" + secret_.substr(0, 41)) + "AAAA"}},
      {"CA18_nonUtf8", {basicRaw("svc_client_\xff\xfe:\xc3\x28")}},
      {"CA18_encodedNonUtf8Secret", {basic(clientId_, "\xc3\x28")}},
      {"CA19_upperCasePrefix", {basic("SVC_CLIENT_" + clientId_.substr(11), secret_)}},
      {"CA19_emptySuffix", {basic("svc_client_", secret_)}},
      {"CA20_oversizedIdAndSecret", {basic(std::string(4096, 'i'), std::string(3072, 's'))}},
      {"CA21_twoHeaders", {basic("evil", "x"), valid}},
      {"CA21_twoHeadersReversed", {valid, basic("evil", "x")}},
      {"CA25_encodedWord", {"Basic =?UTF-8?B?" + encodeBase64(valid.substr(6)) + "?="}},
      {"secretWithDifferentCase",
       {basic(clientId_,
              [s = secret_]() mutable {
                for (char& c : s) c = static_cast<char>(std::toupper(c));
                return s;
              }())}},
  };
  for (const CredentialRow& row : rows) {
    SCOPED_TRACE(row.name);
    Request request;
    request.authorizations = row.authorizations;
    registry_.authenticationLookups = 0;
    const TokenOutcome outcome = send(request);
    expectAnswer(outcome.answer, kInvalidClient);
    EXPECT_EQ(outcome.cause, "badCredentials");
    EXPECT_EQ(outcome.clientId, "");
    EXPECT_EQ(registry_.authenticationLookups, 1);  // SS-05: one lookup on every path
  }
}

TEST_F(TokenEndpointTest, CA04_CA14_SchemeCaseAndPercentEncodedSecretsAuthenticate) {
  for (const std::string& header :
       {"basic " + encodeBase64(clientId_ + ":" + secret_), "BASIC " + encodeBase64(clientId_ + ":" + secret_),
        basicRaw(formEncode(clientId_) + ":" + [this] {
          std::string everyByte;
          static constexpr char kHex[] = "0123456789ABCDEF";
          for (const char c : secret_) {
            everyByte += '%';
            everyByte += kHex[static_cast<unsigned char>(c) >> 4];
            everyByte += kHex[static_cast<unsigned char>(c) & 0x0F];
          }
          return everyByte;
        }())}) {
    SCOPED_TRACE(header);
    Request request;
    request.authorizations = {header};
    expectToken(send(request), clientId_);
  }
}

TEST_F(TokenEndpointTest, ES02_LapsedSubscriptionIsUnauthorizedClient) {
  Request request;
  request.authorizations = {basic(lapsedId_, lapsedSecret_)};
  const TokenOutcome outcome = send(request);
  expectAnswer(outcome.answer, kUnauthorizedClient);
  EXPECT_EQ(outcome.clientId, lapsedId_);
  EXPECT_EQ(outcome.cause, "unauthorizedClient");
  // A downgrade to Free lapses too.
  stored_.setPlan(organizationId_, Plan::Free);
  seeChanges();
  expectAnswer(send(valid()).answer, kUnauthorizedClient);
}

TEST_F(TokenEndpointTest, ES03_LapsedClientWithAWrongSecretIsInvalidClient) {
  Request request;
  request.authorizations = {basic(lapsedId_, secret_)};
  expectAnswer(send(request).answer, kInvalidClient);
}

TEST_F(TokenEndpointTest, ES04_D13_SyntaxIsCheckedBeforeCredentials) {
  Request request;
  request.authorizations = {basic(unknownId_, "wrong")};
  request.body = "";
  expectAnswer(send(request).answer, expectedError(400, "Bad Request", "invalid_request",
                                                   "grant_type is missing: send grant_type=client_credentials"));
  request.body = "grant_type=password";
  expectAnswer(send(request).answer, kUnsupportedGrantType);
  request.authorizations = {};
  expectAnswer(send(request).answer, kUnsupportedGrantType);
  EXPECT_EQ(registry_.authenticationLookups, 0);
}

TEST_F(TokenEndpointTest, ES05_RegistryFaultIsServerErrorNeverAToken) {
  registry_.failing = true;
  // The view checked this second still vouches for the right secret (D-T6);
  // everything else needs the registry.
  registry_.authenticationLookups = 0;
  expectToken(send(valid()), clientId_);
  EXPECT_EQ(registry_.authenticationLookups, 0);
  Request unknown;
  unknown.authorizations = {basic(unknownId_, "x")};
  expectAnswer(send(unknown).answer, kServerError);
  // The next second the view's check fails, and the right secret needs the registry too.
  clock_.advance(1);
  EXPECT_THROW(view_.refreshIfChanged(), RegistryError);
  const TokenOutcome outcome = send(valid());
  expectAnswer(outcome.answer, kServerError);
  EXPECT_EQ(outcome.cause, "serverError");
  EXPECT_EQ(outcome.fault, "registry database, injected fault: disk I/O error");  // for the server's log
  registry_.failing = false;
  expectToken(send(valid()), clientId_);
}

// D-T6: the right secret of an active client is answered from the view in the
// second the view was checked; the registry is asked otherwise.
TEST_F(TokenEndpointTest, TheViewAnswersTheRightSecretAndTheRegistryEverythingElse) {
  registry_.authenticationLookups = 0;
  expectToken(send(valid()), clientId_);
  EXPECT_EQ(registry_.authenticationLookups, 0);
  // A client created since the view's last check: found in the registry.
  const CreatedClient fresh = stored_.createClient(organizationId_, "fresh", {"write:codes"}, "tester");
  Request request;
  request.authorizations = {basic(fresh.client.id, fresh.secret)};
  expectToken(send(request), fresh.client.id);
  EXPECT_EQ(registry_.authenticationLookups, 1);
  // A second the view was not checked in: the registry answers.
  clock_.advance(1);
  expectToken(send(valid()), clientId_);
  EXPECT_EQ(registry_.authenticationLookups, 2);
  seeChanges();
  expectToken(send(request), fresh.client.id);
  EXPECT_EQ(registry_.authenticationLookups, 2);
}

// A block the view has not seen yet: the view still vouches within its
// second, but the token is dated in that second, before the block's
// tokensNotBefore, so it is revoked with every other token of the client,
// the unblock after included (D-S6, D-T6).
TEST_F(TokenEndpointTest, ATokenTheViewVouchedForAfterAnUnseenBlockStaysRevokedAfterTheUnblock) {
  stored_.setClientState(clientId_, ClientState::Blocked);
  const TokenOutcome unseen = send(valid());
  expectToken(unseen, clientId_);
  const std::string& body = unseen.answer.body;
  const std::size_t start = body.find(":\"") + 2;
  const std::string token = body.substr(start, body.find('"', start) - start);
  // The next second the view is not vouching: the registry refuses.
  clock_.advance(1);
  expectAnswer(send(valid()).answer, kInvalidClient);
  stored_.setClientState(clientId_, ClientState::Active);
  seeChanges();
  const AccessTokenVerifier verifier(keys_, TokenSettings{});
  AccessTokenClaims claims;
  ASSERT_EQ(verifier.verify(token, clock_.now(), claims), TokenRejection::None);
  EXPECT_EQ(claims.issuedAt, clock_.now() - 1);
  EXPECT_EQ(view_.standing(clientId_, organizationId_, claims.issuedAt), ClientStanding::Revoked);
  expectToken(send(valid()), clientId_);
}

TEST_F(TokenEndpointTest, OnlyAServerErrorCarriesAFault) {
  EXPECT_EQ(send(valid()).fault, "");
  EXPECT_EQ(send(Request{}).fault, "");
}

// D-U8: each description is a fixed text in RFC 6749 §5.2's character set
// (%x20-21 / %x23-5B / %x5D-7E), so the body needs no JSON escaping.
TEST(TokenErrorDescriptions, AreFixedTextsInTheCharacterSetOfRfc6749) {
  const std::vector<std::pair<std::string_view, std::string_view>> rows = {
      {text::kMethodNotAllowed, "the token endpoint accepts only POST"},
      {text::kTwoContentTypes, "send one Content-Type header: application/x-www-form-urlencoded"},
      {text::kNotForm,
       "the body must be application/x-www-form-urlencoded, e.g. grant_type=client_credentials (not JSON, not "
       "multipart)"},
      {text::kBodyTooLarge, "the body is larger than this endpoint accepts"},
      {text::kQueryTooLong, "the query string is longer than this endpoint accepts"},
      {text::kBadEscape, "the form has a '%' that is not followed by two hex digits"},
      {text::kTooManyFields, "the body or the query has more parameters than this endpoint accepts"},
      {text::kDuplicateGrantType, "grant_type must be sent once, in the body or in the query, not both"},
      {text::kMissingGrantType, "grant_type is missing: send grant_type=client_credentials"},
      {text::kMultipleAuthMethods,
       "send the client id and secret only with HTTP Basic authentication, not also as client_id or client_secret "
       "parameters"},
      {text::kDuplicateScope, "scope must be sent at most once"},
      {text::kBadScope, "scope must be scope names separated by single spaces"},
      {text::kUnsupportedGrantType, "the only grant_type is client_credentials"},
      {text::kInvalidClient,
       "client authentication failed: send the client id and secret with HTTP Basic authentication"},
      {text::kUnauthorizedClient, "the organization's subscription does not cover API clients"},
      {text::kRateLimited, "too many requests: wait the number of seconds in Retry-After"},
      {text::kServerError, "the server could not answer this request; it is safe to retry"},
  };
  for (const auto& [description, expected] : rows) {
    EXPECT_EQ(description, expected);
    for (const char character : description) {
      EXPECT_TRUE(character >= 0x20 && character <= 0x7E && character != '"' && character != '\\') << description;
    }
  }
  EXPECT_EQ(
      tokenErrorBody("invalid_request", text::kBadScope),
      R"({"error":"invalid_request","error_description":"scope must be scope names separated by single spaces"})");
}

TEST_F(TokenEndpointTest, BA20_BearerTokenOnTheTokenEndpointIsInvalidClient) {
  const std::string body = send(valid()).answer.body;
  const std::string token = body.substr(17, body.find('"', 17) - 17);
  Request request;
  request.authorizations = {"Bearer " + token};
  expectAnswer(send(request).answer, kInvalidClient);
}

class TokenEndpointThrottleTest : public TokenEndpointTest {
 protected:
  static ThrottleSettings small() {
    ThrottleSettings settings;
    settings.failuresPerAddress = 3;
    settings.failuresPerClient = 5;
    settings.tokensPerClient = 4;
    settings.windowSeconds = 60;
    return settings;
  }
  TokenEndpointThrottleTest() : TokenEndpointTest(small()) {}

  TokenOutcome failFrom(const std::string& address, const std::string& clientId) {
    Request request;
    request.authorizations = {basic(clientId, "wrong-secret")};
    request.address = address;
    return send(request);
  }
};

HttpAnswer rateLimited(int retryAfter) {
  return expectedError(429, "Too Many Requests", "rate_limited",
                       "too many requests: wait the number of seconds in Retry-After",
                       {{"Retry-After", std::to_string(retryAfter)}});
}

TEST_F(TokenEndpointThrottleTest, RL01_RL05_RL06_AnAddressOverItsFailureBudgetIsRefusedBeforeAnyCheck) {
  for (int attempt = 0; attempt < 3; ++attempt)
    expectAnswer(failFrom("198.51.100.7", clientId_).answer, kInvalidClient);
  registry_.authenticationLookups = 0;
  // Known id, unknown id, and the correct secret: all the same 429, no lookup.
  const TokenOutcome known = failFrom("198.51.100.7", clientId_);
  expectAnswer(known.answer, rateLimited(60));
  EXPECT_EQ(known.cause, "addressThrottled");
  expectAnswer(failFrom("198.51.100.7", unknownId_).answer, rateLimited(60));
  Request correct = valid();
  correct.address = "198.51.100.7";
  expectAnswer(send(correct).answer, rateLimited(60));
  EXPECT_EQ(registry_.authenticationLookups, 0);
  clock_.advance(45);
  expectAnswer(send(correct).answer, rateLimited(15));
  clock_.advance(15);
  expectToken(send(correct), clientId_);
}

TEST_F(TokenEndpointThrottleTest, RL02_AValidClientFromAnotherAddressIsUnaffected) {
  for (int attempt = 0; attempt < 4; ++attempt) failFrom("198.51.100.7", clientId_);
  Request other = valid();
  other.address = "203.0.113.9";
  expectToken(send(other), clientId_);
}

TEST_F(TokenEndpointThrottleTest, RL03_AClientIdOverItsFailureBudgetGets429ForFailuresOnly) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    expectAnswer(failFrom("10.0.0." + std::to_string(attempt), clientId_).answer, kInvalidClient);
  }
  const TokenOutcome throttled = failFrom("10.0.1.1", clientId_);
  expectAnswer(throttled.answer, rateLimited(60));
  EXPECT_EQ(throttled.cause, "clientThrottled");
  // The real client, with the right secret, still gets its token.
  Request correct = valid();
  correct.address = "10.0.2.2";
  expectToken(send(correct), clientId_);
  // Unknown well-formed ids are counted the same way.
  for (int attempt = 0; attempt < 5; ++attempt) failFrom("10.1.0." + std::to_string(attempt), unknownId_);
  expectAnswer(failFrom("10.1.1.1", unknownId_).answer, rateLimited(60));
}

TEST_F(TokenEndpointThrottleTest, RL04_AClientMintingTooManyTokensGets429) {
  for (int token = 0; token < 4; ++token) expectToken(send(valid()), clientId_);
  const TokenOutcome outcome = send(valid());
  expectAnswer(outcome.answer, rateLimited(60));
  EXPECT_EQ(outcome.cause, "issuanceThrottled");
  EXPECT_EQ(outcome.clientId, clientId_);
  clock_.advance(60);
  expectToken(send(valid()), clientId_);
}

}  // namespace
}  // namespace codepayload::auth
