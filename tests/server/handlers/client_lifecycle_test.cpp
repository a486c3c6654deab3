// API clients managed with the real codepayload-admin executable while the
// server runs: block, unblock, lapse and delete take effect within a second,
// for new token requests and for tokens already issued (a block revokes the
// tokens issued before it for good: an unblock does not revive them). Token
// expiry with a short lifetime, and tokens that were tampered with or forged.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <functional>
#include <string>
#include <thread>

#include "tests/server/support/admin_process.h"
#include "auth/base64.h"
#include "auth/signing_keys.h"
#include "auth/token_issuer.h"
#include "tests/server/support/service_harness.h"
#include "tests/server/support/sample_requests.h"

namespace codepayload::server::testing {
namespace {

const std::string kInvalidToken = R"(Bearer realm="codepayload", error="invalid_token")";

HttpResult tokenRequest(ServiceHarness& harness, const std::string& clientId, const std::string& secret) {
  return harness.request(HttpCall{
      "POST",
      "/oauth/token",
      {{"Authorization", basicAuthorization(clientId, secret)}, {"Content-Type", "application/x-www-form-urlencoded"}},
      "grant_type=client_credentials"});
}

// Polls `condition` every 50 ms for at most one second; returns how long it took.
std::chrono::milliseconds waitUntil(const std::function<bool()>& condition) {
  const auto started = std::chrono::steady_clock::now();
  while (!condition() && std::chrono::steady_clock::now() - started < std::chrono::seconds(1)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
}

TEST(ClientLifecycle, AdminChangesAreVisibleWithinOneSecond) {
  ServiceHarness harness;
  const AdminResult organization =
      runAdmin(harness.dataDir(), {"org", "create", "--name", "Acme", "--plan", "starter"});
  ASSERT_EQ(organization.exitCode, 0) << organization.err;
  const std::string organizationId = jsonMember(organization.out, "id");
  const AdminResult created = runAdmin(
      harness.dataDir(), {"client", "create", "--org", organizationId, "--name", "line 4", "--scope", "write:codes"});
  ASSERT_EQ(created.exitCode, 0) << created.err;
  const std::string clientId = jsonMember(created.out, "clientId");
  const std::string secret = jsonMember(created.out, "clientSecret");

  HttpResult issued;
  waitUntil([&] { return (issued = tokenRequest(harness, clientId, secret)).status == 200; });
  ASSERT_EQ(issued.status, 200) << issued.body;
  const auto accessToken = [](const HttpResult& result) {
    return Poco::JSON::Parser()
        .parse(result.body)
        .extract<Poco::JSON::Object::Ptr>()
        ->getValue<std::string>("access_token");
  };
  std::string token = accessToken(issued);
  // /codes checks clients against a view of the registry refreshed every 250 ms.
  HttpResult first;
  waitUntil([&] { return (first = harness.codes(token, kOneItem)).status == 200; });
  EXPECT_EQ(first.status, 200);

  struct Step {
    std::vector<std::string> command;
    int tokenStatus;
    std::string tokenBody;
    int codesStatus;
    std::string challenge;
  };
  const std::string ok = "<token>";
  const std::string kInvalidClient =
      R"({"error":"invalid_client","error_description":"client authentication failed: send the client id and )"
      R"(secret with HTTP Basic authentication"})";
  const Step steps[] = {
      {{"client", "block", clientId}, 401, kInvalidClient, 401, kInvalidToken},
      // The token from before the block stays revoked; the new one works.
      {{"client", "unblock", clientId}, 200, ok, 401, kInvalidToken},
      // Blocked and unblocked at once (often within one second, as iat counts).
      {{"client", "block", clientId}, 401, kInvalidClient, 401, kInvalidToken},
      {{"client", "unblock", clientId}, 200, ok, 401, kInvalidToken},
      {{"org", "set-subscription", organizationId, "inactive"},
       400,
       R"({"error":"unauthorized_client","error_description":"the organization's subscription does not cover API )"
       R"(clients"})",
       403,
       R"(Bearer realm="codepayload", error="insufficient_scope", )"
       R"(error_description="subscription does not cover API clients")"},
      {{"org", "set-subscription", organizationId, "active"}, 200, ok, 200, "<absent>"},
      {{"client", "delete", clientId}, 401, kInvalidClient, 401, kInvalidToken},
  };
  for (const Step& step : steps) {
    const AdminResult changed = runAdmin(harness.dataDir(), step.command);
    ASSERT_EQ(changed.exitCode, 0) << changed.err;
    HttpResult codes;
    const auto took = waitUntil([&] { return (codes = harness.codes(token, kOneItem)).status == step.codesStatus; });
    EXPECT_EQ(codes.status, step.codesStatus) << step.command[1];
    EXPECT_EQ(codes.header("www-authenticate"), step.challenge) << step.command[1];
    EXPECT_LT(took, std::chrono::milliseconds(1000)) << step.command[1];
    const HttpResult again = tokenRequest(harness, clientId, secret);
    EXPECT_EQ(again.status, step.tokenStatus) << step.command[1];
    if (step.tokenBody != ok) {
      EXPECT_EQ(again.body, step.tokenBody) << step.command[1];
    } else if (again.status == 200) {
      // From here on the newest token is the one checked.
      token = accessToken(again);
      HttpResult fresh;
      waitUntil([&] { return (fresh = harness.codes(token, kOneItem)).status == 200; });
      EXPECT_EQ(fresh.status, 200) << step.command[1] << ": " << fresh.body;
    }
  }
}

TEST(ClientLifecycle, TokensExpireAfterTheConfiguredLifetime) {
  ServiceHarness harness([](ServerConfig& config) {
    config.tokenTtlSeconds = 1;
    config.tokenLeewaySeconds = 0;
  });
  const ApiClient client = harness.createClient({"write:codes"});
  const HttpResult issued = tokenRequest(harness, client.clientId, client.secret);
  ASSERT_EQ(issued.status, 200);
  const auto body = Poco::JSON::Parser().parse(issued.body).extract<Poco::JSON::Object::Ptr>();
  EXPECT_EQ(body->getValue<int>("expires_in"), 1);
  const std::string token = body->getValue<std::string>("access_token");
  const std::time_t issuedAt = std::time(nullptr);
  EXPECT_EQ(harness.codes(token, kOneItem).status, 200);
  // exp = iat + 1; the token is refused once now > exp.
  while (std::time(nullptr) <= issuedAt + 1) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const HttpResult expired = harness.codes(token, kOneItem);
  EXPECT_EQ(expired.status, 401);
  EXPECT_EQ(expired.header("www-authenticate"), kInvalidToken);
}

TEST(ClientLifecycle, TamperedAndForgedTokensAre401) {
  ServiceHarness harness;
  const ApiClient client = harness.createClient({"write:codes"});
  const std::string token = harness.token(client);
  const auto firstDot = token.find('.');
  const auto secondDot = token.find('.', firstDot + 1);
  const std::string header = token.substr(0, firstDot);
  const std::string payload = token.substr(firstDot + 1, secondDot - firstDot - 1);
  const std::string signature = token.substr(secondDot + 1);

  std::string payloadJson;
  ASSERT_TRUE(auth::decodeBase64UrlStrict(payload, payloadJson));
  auto claims = Poco::JSON::Parser().parse(payloadJson).extract<Poco::JSON::Object::Ptr>();
  claims->set("exp", claims->getValue<Poco::Int64>("exp") + 86400);
  std::ostringstream longer;
  claims->stringify(longer);
  const std::string extended = header + "." + auth::encodeBase64Url(longer.str()) + "." + signature;

  const auth::SigningKeySet otherKeys(auth::SigningKey::generate());
  auth::TokenSettings settings;
  const std::vector<std::string> scopes{"write:codes"};
  const auth::TokenIssuer forger(otherKeys, settings);
  const std::string forged =
      forger.issue(auth::TokenSubject{client.organizationId, client.clientId, scopes}).accessToken;
  const std::string none = auth::encodeBase64Url(std::string(R"({"alg":"none","typ":"at+jwt"})")) + "." + payload + ".";

  const std::pair<std::string, std::string> rows[] = {
      {"payload changed, signature kept", extended},
      {"signed by another key", forged},
      {"alg none", none},
      {"signature of another token", header + "." + payload + "." + forged.substr(forged.rfind('.') + 1)},
      {"extra segment", token + ".x"},
  };
  for (const auto& [name, candidate] : rows) {
    const HttpResult result = harness.codes(candidate, kOneItem);
    EXPECT_EQ(result.status, 401) << name;
    EXPECT_EQ(result.header("www-authenticate"), kInvalidToken) << name;
  }
  EXPECT_EQ(harness.codes(token, kOneItem).status, 200);
}

}  // namespace
}  // namespace codepayload::server::testing
