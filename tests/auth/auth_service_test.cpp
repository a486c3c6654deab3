#include "auth/auth_service.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <thread>
#include <tuple>

#include "auth/base64.h"
#include "auth/secret_hasher.h"
#include "auth/signing_keys.h"
#include "auth/sql_client_registry.h"
#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

using testing::TempDir;

// `dataDir`, holding the shared test key of `algorithm`, so the service loads
// it instead of generating one (RSA generation is slow).
const std::filesystem::path& withTestKey(const std::filesystem::path& dataDir, SigningAlgorithm algorithm) {
  std::filesystem::create_directories(dataDir);
  testing::installSharedTestKey(dataDir / "token-signing-key.pem", algorithm);
  return dataDir;
}

unsigned modeOf(const std::filesystem::path& path) {
  struct stat status {};
  EXPECT_EQ(::stat(path.c_str(), &status), 0) << path;
  return status.st_mode & 0777;
}

TokenOutcome requestToken(const AuthService& service, const std::string& clientId, const std::string& secret) {
  const std::string authorization = testing::basic(clientId, secret);
  const std::string_view contentType = "application/x-www-form-urlencoded";
  const std::string_view authorizations[] = {authorization};
  TokenRequest request;
  request.method = "POST";
  request.contentTypes = std::span<const std::string_view>(&contentType, 1);
  request.authorizations = authorizations;
  request.body = "grant_type=client_credentials";
  request.clientAddress = "127.0.0.1";
  return service.tokenEndpoint().handle(request);
}

std::string accessTokenOf(const TokenOutcome& outcome) {
  const std::string& body = outcome.answer.body;
  return body.substr(17, body.find('"', 17) - 17);
}

BearerOutcome authenticate(const AuthService& service, const std::string& token) {
  const std::string header = "Bearer " + token;
  const std::string_view values[] = {header};
  return service.bearerAuthenticator().authenticate(values, "write:codes");
}

// The header of a JWT, decoded.
std::string headerOf(const std::string& token) {
  std::string header;
  EXPECT_TRUE(decodeBase64UrlStrict(token.substr(0, token.find('.')), header));
  return header;
}

std::string expectedHeader(const SigningKey& key) {
  return R"({"alg":")" + key.algorithmName() + R"(","kid":")" + key.kid() + R"(","typ":"at+jwt"})";
}

TEST(AuthService, CreatesItsFilesInANewDataDirectoryWithAnEcP256SigningKey) {
  TempDir dir;
  const auto dataDir = dir.path() / "data";
  testing::OpenedAuthService serviceOpened(dataDir);
  AuthService& service = serviceOpened.service;
  EXPECT_EQ(modeOf(dataDir), 0700u);
  EXPECT_EQ(modeOf(dataDir / "client-secret-pepper"), 0600u);
  EXPECT_EQ(modeOf(dataDir / "token-signing-key.pem"), 0600u);
  EXPECT_TRUE(std::filesystem::exists(dataDir / "registry.db"));
  const SigningKey key = SigningKey::load(dataDir / "token-signing-key.pem");
  EXPECT_EQ(key.algorithm(), SigningAlgorithm::ES256);
  EXPECT_EQ(service.jwksJson(), R"({"keys":[)" + key.publicJwk() + "]}");
  EXPECT_TRUE(service.jwksJson().starts_with(R"({"keys":[{"kty":"EC","kid":")")) << service.jwksJson();
  // ES256 is the default: the tokens of a new data directory say so.
  const Organization acme = service.registry().createOrganization("Acme", Plan::Pro);
  const CreatedClient client = service.registry().createClient(acme.id, "erp", {"write:codes"}, "tester");
  const TokenOutcome issued = requestToken(service, client.client.id, client.secret);
  ASSERT_EQ(issued.answer.status, 200) << issued.answer.body;
  EXPECT_EQ(headerOf(accessTokenOf(issued)), expectedHeader(key));
}

TEST(AuthService, IssuesAndAcceptsTokensAndSeesRegistryChangesWithinOneSecond) {
  TempDir dir;
  testing::OpenedAuthService serviceOpened(withTestKey(dir.path(), SigningAlgorithm::ES256));
  AuthService& service = serviceOpened.service;
  const Organization acme = service.registry().createOrganization("Acme", Plan::Pro);
  const CreatedClient client = service.registry().createClient(acme.id, "erp", {"write:codes"}, "tester");

  const TokenOutcome issued = requestToken(service, client.client.id, client.secret);
  ASSERT_EQ(issued.answer.status, 200) << issued.answer.body;
  const std::string token = accessTokenOf(issued);
  // The client was created after the view was loaded: the refresher picks it up.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (!authenticate(service, token).allowed() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(authenticate(service, token).allowed());

  // Blocked by another process (the admin tool): seen within a second.
  const SecretHasher hasher = SecretHasher::loadOrCreate(dir.path() / "client-secret-pepper");
  SqlClientRegistry admin(RegistryDatabase::sqlite(dir.path() / "registry.db"), testing::sourceRegistryMigrations(),
                          hasher);
  admin.setClientState(client.client.id, ClientState::Blocked);
  const auto blockedAt = std::chrono::steady_clock::now();
  while (authenticate(service, token).allowed() &&
         std::chrono::steady_clock::now() - blockedAt < std::chrono::milliseconds(1500)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - blockedAt, std::chrono::seconds(1));
  EXPECT_EQ(authenticate(service, token).cause, "revoked");
  EXPECT_EQ(requestToken(service, client.client.id, client.secret).answer.status, 401);
}

class AuthServiceWithKey : public ::testing::TestWithParam<SigningAlgorithm> {};

INSTANTIATE_TEST_SUITE_P(Algorithms, AuthServiceWithKey, testing::kBothAlgorithms, testing::algorithmTestName);

TEST_P(AuthServiceWithKey, ASecondStartReusesTheKeyAndThePepperAndSignsWithTheKeysAlgorithm) {
  // An existing data dir with an RSA key keeps signing RS256 (nothing breaks on upgrade).
  TempDir dir;
  std::string jwks;
  CreatedClient client;
  {
    testing::OpenedAuthService firstOpened(withTestKey(dir.path(), GetParam()));
    AuthService& first = firstOpened.service;
    jwks = first.jwksJson();
    const Organization acme = first.registry().createOrganization("Acme", Plan::Pro);
    client = first.registry().createClient(acme.id, "erp", {"write:codes"}, "tester");
  }
  const testing::OpenedAuthService secondOpened(dir.path());
  const AuthService& second = secondOpened.service;
  EXPECT_EQ(second.jwksJson(), jwks);
  const TokenOutcome issued = requestToken(second, client.client.id, client.secret);
  ASSERT_EQ(issued.answer.status, 200);
  EXPECT_EQ(headerOf(accessTokenOf(issued)), expectedHeader(testing::sharedTestKey(GetParam())));
}

TEST(AuthService, RefusesToStartWithASigningKeyOfAnotherKind) {
  TempDir dir;
  std::filesystem::create_directories(dir.path());
  const auto file = dir.path() / "token-signing-key.next.pem";
  {
    std::ofstream out(file);
    out << "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIENn3idCa4QMU2OQozPHu23KU8o1YasUNPZozvCpKSTo\n"
           "-----END PRIVATE KEY-----\n";
  }
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  try {
    const testing::OpenedAuthService service(withTestKey(dir.path(), SigningAlgorithm::ES256));
    FAIL() << "an Ed25519 next key was accepted";
  } catch (const SigningKeyError& error) {
    EXPECT_EQ(std::string(error.what()),
              "token signing key: " + file.string() +
                  " holds a key of type ED25519; it must be an EC P-256 key (ES256) or an RSA key of at least 2048 "
                  "bits (RS256)");
  }
}

// Key rotation from a key of the first algorithm to a key of the second:
// RSA to EC is the upgrade path; every pair works the same way.
class KeyRotationDrill : public ::testing::TestWithParam<std::tuple<SigningAlgorithm, SigningAlgorithm>> {};

INSTANTIATE_TEST_SUITE_P(Algorithms, KeyRotationDrill,
                         ::testing::Combine(testing::kBothAlgorithms, testing::kBothAlgorithms), [](const auto& row) {
                           return std::string(signingAlgorithmName(std::get<0>(row.param))) + "_to_" +
                                  std::string(signingAlgorithmName(std::get<1>(row.param)));
                         });

TEST_P(KeyRotationDrill, JK05_TokensOfThePreviousKeyVerifyUntilItIsRemoved) {
  const auto [before, after] = GetParam();
  TempDir dir;
  const auto current = dir.path() / "token-signing-key.pem";
  const auto previous = dir.path() / "token-signing-key.previous.pem";
  const auto next = dir.path() / "token-signing-key.next.pem";
  CreatedClient client;
  std::string oldToken;
  {
    testing::OpenedAuthService serviceOpened(withTestKey(dir.path(), before));
    AuthService& service = serviceOpened.service;
    const Organization acme = service.registry().createOrganization("Acme", Plan::Pro);
    client = service.registry().createClient(acme.id, "erp", {"write:codes"}, "tester");
    oldToken = accessTokenOf(requestToken(service, client.client.id, client.secret));
  }
  testing::installOtherTestKey(next, after);
  const SigningKey first = SigningKey::load(current);
  const SigningKey second = SigningKey::load(next);
  ASSERT_EQ(first.algorithm(), before);
  ASSERT_EQ(second.algorithm(), after);
  EXPECT_EQ(headerOf(oldToken), expectedHeader(first));
  {
    // 1. The next key is published but does not sign yet.
    const testing::OpenedAuthService publishedOpened(dir.path());
    const AuthService& published = publishedOpened.service;
    EXPECT_EQ(published.jwksJson(), R"({"keys":[)" + first.publicJwk() + "," + second.publicJwk() + "]}");
    const std::string token = accessTokenOf(requestToken(published, client.client.id, client.secret));
    EXPECT_EQ(headerOf(token), expectedHeader(first));
  }
  std::filesystem::rename(current, previous);
  std::filesystem::rename(next, current);
  {
    // 2. The new key signs; tokens of the old one still verify.
    const testing::OpenedAuthService rotatedOpened(dir.path());
    const AuthService& rotated = rotatedOpened.service;
    EXPECT_EQ(rotated.jwksJson(), R"({"keys":[)" + second.publicJwk() + "," + first.publicJwk() + "]}");
    const std::string token = accessTokenOf(requestToken(rotated, client.client.id, client.secret));
    EXPECT_EQ(headerOf(token), expectedHeader(second));
    EXPECT_TRUE(authenticate(rotated, oldToken).allowed());
    EXPECT_TRUE(authenticate(rotated, token).allowed());
  }
  // 3. The old key retired: its tokens are refused at once.
  std::filesystem::remove(previous);
  const testing::OpenedAuthService retiredOpened(dir.path());
  const AuthService& retired = retiredOpened.service;
  EXPECT_EQ(retired.jwksJson(), R"({"keys":[)" + second.publicJwk() + "]}");
  EXPECT_EQ(authenticate(retired, oldToken).cause, "unknownKey");
}

TEST(AuthService, ReportsAnUnusableDataDirectory) {
  TempDir dir;
  const auto file = dir.path() / "not-a-directory";
  { std::ofstream(file) << "x"; }
  EXPECT_THROW(testing::OpenedAuthService{file}, std::exception);
}

}  // namespace
}  // namespace codepayload::auth
