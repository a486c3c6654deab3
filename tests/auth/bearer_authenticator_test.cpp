// BA-* at the level of BearerAuthenticator: exact status, challenge, envelope
// code and message for every way a request can carry (or not carry) a token.
#include "auth/bearer_authenticator.h"

#include <gtest/gtest.h>

#include <vector>

#include "auth/sql_client_registry.h"
#include "auth/token_issuer.h"
#include "auth_test_support.h"
#include "tests/support/scratch_registry.h"

namespace codepayload::auth {
namespace {

using testing::FakeClock;
using testing::TempDir;

constexpr std::string_view kScope = "write:codes";
constexpr std::string_view kInvalidToken = R"(Bearer realm="codepayload", error="invalid_token")";
// The one message of every invalid_token 401, whichever check failed.
constexpr std::string_view kNotValid = "The access token is not valid.";

class BearerAuthenticatorTest : public ::testing::TestWithParam<SigningAlgorithm> {
 protected:
  BearerAuthenticatorTest()
      : database_(codepayload::testing::freshRegistryDatabase(dir_.path())),
        hasher_(std::string(32, 'p')),
        registry_(database_, testing::sourceRegistryMigrations(), hasher_, clock_.clock()),
        keys_(testing::sharedTestKey(GetParam())),
        issuer_(keys_, TokenSettings{}, clock_.clock()),
        verifier_(keys_, TokenSettings{}),
        organization_(registry_.createOrganization("Acme", Plan::Starter)),
        writer_(clientWithStoredScopes("writer", "read:codes write:codes")),
        reader_(clientWithStoredScopes("reader", "read:codes")),
        view_(registry_, clock_.clock()),
        cache_(1024),
        authenticator_(verifier_, view_, cache_, clock_.clock()) {}

  // A client holding `scopes` as a registry from before D-U9 may (read:codes
  // is no scope the server knows).
  ClientRecord clientWithStoredScopes(std::string_view name, const std::string& scopes) {
    const ClientRecord created = registry_.createClient(organization_.id, name, {"write:codes"}, "tester").client;
    codepayload::testing::storeScopesBehindTheRegistry(database_, created.id, scopes);
    return registry_.findClient(created.id).value();
  }

  // As the token endpoint issues it: dated no earlier than the client's tokensNotBefore.
  std::string tokenFor(const ClientRecord& client) {
    const std::int64_t notBefore = registry_.findClientForAuthentication(client.id).value().tokensNotBefore;
    return issuer_.issue({client.organizationId, client.id, client.scopes, notBefore}).accessToken;
  }

  BearerOutcome authenticate(std::vector<std::string> values) {
    std::vector<std::string_view> views(values.begin(), values.end());
    return authenticator_.authenticate(views, kScope);
  }

  static void expectRefused(const BearerOutcome& outcome, int status, std::string_view challenge,
                            std::string_view message, std::string_view cause) {
    EXPECT_FALSE(outcome.allowed());
    EXPECT_EQ(outcome.status, status);
    EXPECT_EQ(outcome.reason, status == 401 ? "Unauthorized" : "Forbidden");
    EXPECT_EQ(outcome.verdict,
              status == 401 ? BearerOutcome::Verdict::Unauthorized : BearerOutcome::Verdict::Forbidden);
    EXPECT_EQ(outcome.wwwAuthenticate, challenge);
    EXPECT_EQ(outcome.errorCode, status == 401 ? "Unauthorized" : "Forbidden");
    EXPECT_EQ(outcome.message, message);
    EXPECT_EQ(outcome.cause, cause);
    EXPECT_EQ(outcome.claims, nullptr);
  }

  TempDir dir_;
  RegistryDatabase database_;
  FakeClock clock_;
  SecretHasher hasher_;
  SqlClientRegistry registry_;
  SigningKeySet keys_;
  TokenIssuer issuer_;
  AccessTokenVerifier verifier_;
  Organization organization_;
  ClientRecord writer_;
  ClientRecord reader_;
  RegistryView view_;
  VerifiedTokenCache cache_;
  BearerAuthenticator authenticator_;
};

INSTANTIATE_TEST_SUITE_P(Algorithms, BearerAuthenticatorTest, testing::kBothAlgorithms, testing::algorithmTestName);

TEST_P(BearerAuthenticatorTest, BA01_AllowsAValidTokenWithTheScope) {
  const BearerOutcome outcome = authenticate({"Bearer " + tokenFor(writer_)});
  ASSERT_TRUE(outcome.allowed());
  EXPECT_EQ(outcome.status, 200);
  EXPECT_EQ(outcome.reason, "OK");
  EXPECT_EQ(outcome.wwwAuthenticate, "");
  EXPECT_EQ(outcome.errorCode, "");
  EXPECT_EQ(outcome.message, "");
  EXPECT_EQ(outcome.cause, "ok");
  ASSERT_NE(outcome.claims, nullptr);
  EXPECT_EQ(outcome.claims->organizationId, organization_.id);
  EXPECT_EQ(outcome.claims->clientId, writer_.id);
  EXPECT_EQ(outcome.claims->scope, "read:codes write:codes");
}

TEST_P(BearerAuthenticatorTest, BA02_MissingCredentialsGetAChallengeWithoutErrorCode) {
  expectRefused(authenticate({}), 401, R"(Bearer realm="codepayload")",
                "An access token is required: send Authorization: Bearer <token>.", "missing");
}

TEST_P(BearerAuthenticatorTest, BA03_OtherSchemesAreTreatedAsMissingCredentials) {
  for (const std::string& value :
       {testing::basic(writer_.id, "secret"), std::string("Digest x"), std::string("Bearertoken"), std::string("")}) {
    expectRefused(authenticate({value}), 401, R"(Bearer realm="codepayload")",
                  "The Authorization header must use the Bearer scheme.", "notBearer");
  }
}

TEST_P(BearerAuthenticatorTest, BA04_EmptyBearerTokenIsInvalid) {
  for (const char* value : {"Bearer", "Bearer ", "Bearer    "}) {
    expectRefused(authenticate({value}), 401, kInvalidToken, kNotValid, "emptyToken");
  }
}

TEST_P(BearerAuthenticatorTest, BA05_SchemeIsCaseInsensitive) {
  const std::string token = tokenFor(writer_);
  EXPECT_TRUE(authenticate({"bearer " + token}).allowed());
  EXPECT_TRUE(authenticate({"BEARER " + token}).allowed());
  EXPECT_TRUE(authenticate({"  Bearer   " + token + " "}).allowed());
}

TEST_P(BearerAuthenticatorTest, BA06_CharactersOutsideB64TokenAreRefusedWithoutEchoingTheToken) {
  const std::string token = tokenFor(writer_);
  for (const std::string& bad : {token + "\"", "<" + token, token.substr(0, 20) + " " + token.substr(20), token + ",x",
                                 token + "=a", "=" + token}) {
    const BearerOutcome outcome = authenticate({"Bearer " + bad});
    expectRefused(outcome, 401, kInvalidToken, kNotValid, "badCharacters");
  }
}

TEST_P(BearerAuthenticatorTest, B64TokenPaddingIsAllowedByTheGrammarButNotByTheVerifier) {
  expectRefused(authenticate({"Bearer " + tokenFor(writer_) + "=="}), 401, kInvalidToken, kNotValid, "malformed");
}

TEST_P(BearerAuthenticatorTest, BA10_TwoAuthorizationHeadersAreRefused) {
  const std::string token = tokenFor(writer_);
  expectRefused(authenticate({"Bearer " + tokenFor(reader_), "Bearer " + token}), 401, kInvalidToken, kNotValid,
                "multipleHeaders");
  expectRefused(authenticate({"Bearer " + token, "Bearer " + token}), 401, kInvalidToken, kNotValid, "multipleHeaders");
}

TEST_P(BearerAuthenticatorTest, BA11_ExpiredTokensAreRefusedEvenWhenCached) {
  const std::string token = tokenFor(writer_);
  ASSERT_TRUE(authenticate({"Bearer " + token}).allowed());
  clock_.advance(3600 + 30);
  EXPECT_TRUE(authenticate({"Bearer " + token}).allowed());  // BA-12: within the leeway
  clock_.advance(1);
  expectRefused(authenticate({"Bearer " + token}), 401, kInvalidToken, kNotValid, "expired");
}

TEST_P(BearerAuthenticatorTest, TamperedAndForgedTokensAreRefusedAndNotCached) {
  const std::string token = tokenFor(writer_);
  std::string tampered = token;
  const std::size_t inSignature = tampered.rfind('.') + 10;
  tampered[inSignature] = tampered[inSignature] == 'A' ? 'B' : 'A';
  expectRefused(authenticate({"Bearer " + tampered}), 401, kInvalidToken, kNotValid, "badSignature");
  expectRefused(authenticate({"Bearer " + token + ".x"}), 401, kInvalidToken, kNotValid, "malformed");
  expectRefused(authenticate({"Bearer " + std::string(5000, 'a')}), 401, kInvalidToken, kNotValid, "tooLong");
  const SigningKey& other = testing::otherTestKey(GetParam());
  const std::string otherKey = testing::signJws(
      R"({"alg":")" + other.algorithmName() + R"(","typ":"at+jwt","kid":")" + other.kid() + R"("})", "{}", other);
  expectRefused(authenticate({"Bearer " + otherKey}), 401, kInvalidToken, kNotValid, "unknownKey");
  // The other algorithm with this key's kid (ES256 with an RSA kid, RS256 with an EC kid).
  const SigningKey& active = keys_.active();
  const SigningKey& otherKind = testing::sharedTestKey(testing::otherAlgorithm(GetParam()));
  const std::string crossed = testing::signJws(
      R"({"alg":")" + otherKind.algorithmName() + R"(","typ":"at+jwt","kid":")" + active.kid() + R"("})", "{}", active);
  expectRefused(authenticate({"Bearer " + crossed}), 401, kInvalidToken, kNotValid, "badHeader");
  EXPECT_EQ(cache_.size(), 0u);
}

TEST_P(BearerAuthenticatorTest, VerifiedTokensAreCachedOnce) {
  const std::string token = tokenFor(writer_);
  const BearerOutcome first = authenticate({"Bearer " + token});
  const BearerOutcome second = authenticate({"bearer " + token});
  ASSERT_TRUE(second.allowed());
  EXPECT_EQ(cache_.size(), 1u);
  EXPECT_EQ(first.claims, second.claims);  // the very same cached claims
}

TEST_P(BearerAuthenticatorTest, BA24_ReplayingATokenKeepsWorking) {
  const std::string header = "Bearer " + tokenFor(writer_);
  for (int replay = 0; replay < 100; ++replay) ASSERT_TRUE(authenticate({header}).allowed()) << replay;
  EXPECT_EQ(cache_.size(), 1u);
}

TEST_P(BearerAuthenticatorTest, BA15_TokenWithoutTheScopeIsForbidden) {
  expectRefused(authenticate({"Bearer " + tokenFor(reader_)}), 403,
                R"(Bearer realm="codepayload", error="insufficient_scope", scope="write:codes")",
                "The access token lacks the scope write:codes.", "insufficientScope");
  const std::string header = "Bearer " + tokenFor(writer_);
  const std::vector<std::string_view> writerValues = {header};
  const BearerOutcome otherScope = authenticator_.authenticate(writerValues, "admin:codes");
  expectRefused(otherScope, 403, R"(Bearer realm="codepayload", error="insufficient_scope", scope="admin:codes")",
                "The access token lacks the scope admin:codes.", "insufficientScope");
}

TEST_P(BearerAuthenticatorTest, BA18_LapsedSubscriptionIsForbiddenOnceTheViewRefreshes) {
  const std::string token = tokenFor(writer_);
  ASSERT_TRUE(authenticate({"Bearer " + token}).allowed());
  registry_.setSubscription(organization_.id, Subscription::Inactive);
  ASSERT_TRUE(view_.refreshIfChanged());
  expectRefused(
      authenticate({"Bearer " + token}), 403,
      R"(Bearer realm="codepayload", error="insufficient_scope", error_description="subscription does not cover API clients")",
      "The organization's subscription no longer covers API clients.", "lapsed");
  registry_.setSubscription(organization_.id, Subscription::Active);
  registry_.setPlan(organization_.id, Plan::Free);
  ASSERT_TRUE(view_.refreshIfChanged());
  EXPECT_EQ(authenticate({"Bearer " + token}).cause, "lapsed");
  registry_.setPlan(organization_.id, Plan::Pro);
  ASSERT_TRUE(view_.refreshIfChanged());
  EXPECT_TRUE(authenticate({"Bearer " + token}).allowed());
}

TEST_P(BearerAuthenticatorTest, BA19_BlockedAndDeletedClientsTokensAreRevoked) {
  const std::string token = tokenFor(writer_);
  ASSERT_TRUE(authenticate({"Bearer " + token}).allowed());
  registry_.setClientState(writer_.id, ClientState::Blocked);
  ASSERT_TRUE(view_.refreshIfChanged());
  expectRefused(authenticate({"Bearer " + token}), 401, kInvalidToken, kNotValid, "revoked");
  registry_.setClientState(writer_.id, ClientState::Active);
  ASSERT_TRUE(view_.refreshIfChanged());
  // The unblock does not revive the token from before the block; a new one works.
  expectRefused(authenticate({"Bearer " + token}), 401, kInvalidToken, kNotValid, "revoked");
  clock_.advance(1);
  const std::string afterUnblock = tokenFor(writer_);
  EXPECT_TRUE(authenticate({"Bearer " + afterUnblock}).allowed());
  registry_.setClientState(writer_.id, ClientState::Deleted);
  ASSERT_TRUE(view_.refreshIfChanged());
  EXPECT_EQ(authenticate({"Bearer " + afterUnblock}).cause, "revoked");
}

TEST_P(BearerAuthenticatorTest, ACachedTokenStaysRevokedAfterABlockAndUnblockBetweenRefreshes) {
  const std::string token = tokenFor(writer_);
  const std::string other = tokenFor(reader_);
  ASSERT_TRUE(authenticate({"Bearer " + token}).allowed());  // verified and cached
  clock_.advance(20);
  registry_.setClientState(writer_.id, ClientState::Blocked);
  clock_.advance(1);
  registry_.setClientState(writer_.id, ClientState::Active);
  ASSERT_TRUE(view_.refreshIfChanged());  // the view never saw the client blocked
  EXPECT_EQ(cache_.size(), 1u);           // the token is still cached...
  expectRefused(authenticate({"Bearer " + token}), 401, kInvalidToken, kNotValid, "revoked");  // ...and refused
  // Another client's token is not affected.
  EXPECT_EQ(authenticate({"Bearer " + other}).cause, "insufficientScope");
  EXPECT_TRUE(authenticate({"Bearer " + tokenFor(writer_)}).allowed());
}

TEST_P(BearerAuthenticatorTest, ATokenIssuedAfterAnUnblockInTheBlocksSecondWorks) {
  // iat counts seconds: a token issued in the second of the block, before it,
  // is revoked; one issued after the unblock in that same second is dated at
  // the second after the block (inside the leeway), and works at once.
  const std::string before = tokenFor(writer_);
  registry_.setClientState(writer_.id, ClientState::Blocked);
  registry_.setClientState(writer_.id, ClientState::Active);
  ASSERT_TRUE(view_.refreshIfChanged());
  const std::string after = tokenFor(writer_);
  EXPECT_EQ(authenticate({"Bearer " + before}).cause, "revoked");
  const BearerOutcome outcome = authenticate({"Bearer " + after});
  ASSERT_TRUE(outcome.allowed()) << outcome.cause;
  EXPECT_EQ(outcome.claims->issuedAt, clock_.now() + 1);
  EXPECT_EQ(outcome.claims->expiresAt, clock_.now() + 1 + 3600);
}

TEST_P(BearerAuthenticatorTest, ATokenNamingAnotherOrganizationForTheClientIsRevoked) {
  const Organization other = registry_.createOrganization("Other", Plan::Pro);
  EXPECT_FALSE(view_.refreshIfChanged());  // a new organization has no client: no standing changed (D-T3)
  const std::string token = issuer_.issue({other.id, writer_.id, writer_.scopes}).accessToken;
  EXPECT_EQ(authenticate({"Bearer " + token}).cause, "revoked");
  const std::string unknownClient =
      issuer_.issue({organization_.id, "svc_client_000000000000000000000000", writer_.scopes}).accessToken;
  EXPECT_EQ(authenticate({"Bearer " + unknownClient}).cause, "revoked");
}

TEST_P(BearerAuthenticatorTest, BA26_NoMessageOrChallengeEverContainsTheToken) {
  const std::string token = tokenFor(reader_);
  std::vector<std::vector<std::string>> requests = {{"Bearer " + token},
                                                    {"Bearer " + token + "\""},
                                                    {"Bearer " + token + ".x"},
                                                    {"Bearer " + token, "Bearer " + token}};
  for (const auto& request : requests) {
    const BearerOutcome outcome = authenticate(request);
    EXPECT_FALSE(outcome.allowed());
    EXPECT_EQ(outcome.message.find(token.substr(0, 30)), std::string::npos);
    EXPECT_EQ(outcome.wwwAuthenticate.find(token.substr(0, 30)), std::string::npos);
  }
}

// D-U10: when the view must be refreshed for a token of a client it does not
// know and the registry cannot be read, the answer is 500 (the token may be
// good), never the 401 of a revoked token; the registry's message is kept for
// the log. Once the registry reads again, the same token is allowed.
TEST(BearerAuthenticatorRegistryFault, AnUnreadableRegistryIsAServerErrorNotARevokedToken) {
  TempDir dir;
  const FakeClock clock;
  const SecretHasher hasher(std::string(32, 'p'));
  SqlClientRegistry stored(codepayload::testing::freshRegistryDatabase(dir.path()), testing::sourceRegistryMigrations(),
                           hasher, clock.clock());
  testing::FaultInjectingRegistry registry(stored);
  const SigningKeySet keys(testing::sharedTestKey(SigningAlgorithm::ES256));
  const TokenIssuer issuer(keys, TokenSettings{}, clock.clock());
  const AccessTokenVerifier verifier(keys, TokenSettings{});
  RegistryView view(registry, clock.clock());
  VerifiedTokenCache cache(16);
  const BearerAuthenticator authenticator(verifier, view, cache, clock.clock());
  // A client the view has not seen yet.
  const Organization acme = registry.createOrganization("Acme", Plan::Starter);
  const ClientRecord client = registry.createClient(acme.id, "fresh", {"write:codes"}, "tester").client;
  const std::string header = "Bearer " + issuer.issue({acme.id, client.id, client.scopes}).accessToken;
  const std::vector<std::string_view> values = {header};

  registry.failing = true;
  const BearerOutcome outcome = authenticator.authenticate(values, kScope);
  EXPECT_FALSE(outcome.allowed());
  EXPECT_EQ(outcome.verdict, BearerOutcome::Verdict::ServerError);
  EXPECT_EQ(outcome.status, 500);
  EXPECT_EQ(outcome.reason, "Internal Server Error");
  EXPECT_EQ(outcome.errorCode, "ServerError");
  EXPECT_EQ(outcome.message, "The server could not handle this request; it is safe to retry.");
  EXPECT_EQ(outcome.wwwAuthenticate, "");
  EXPECT_EQ(outcome.cause, "registryFault");
  EXPECT_EQ(outcome.fault, "registry database, injected fault: disk I/O error");
  EXPECT_EQ(outcome.claims, nullptr);

  registry.failing = false;
  const BearerOutcome recovered = authenticator.authenticate(values, kScope);
  EXPECT_TRUE(recovered.allowed()) << recovered.cause;
  EXPECT_EQ(recovered.fault, "");
}

}  // namespace
}  // namespace codepayload::auth
