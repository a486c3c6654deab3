// After a run with successful and failed requests (secrets in the wrong
// places included), no client secret, Authorization value or access token is
// found anywhere in the data directory, the access log or the service log.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/server/support/admin_process.h"
#include "tests/server/support/service_harness.h"

namespace codepayload::server::testing {
namespace {

std::string readAll(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

TEST(SecretScan, NoSecretOrTokenIsStoredOrLogged) {
  ServiceHarness harness;
  const AdminResult organization = runAdmin(harness.dataDir(), {"org", "create", "--name", "Scan", "--plan", "pro"});
  ASSERT_EQ(organization.exitCode, 0) << organization.err;
  const AdminResult created = runAdmin(
      harness.dataDir(), {"client", "create", "--org", jsonMember(organization.out, "id"), "--scope", "write:codes"});
  ASSERT_EQ(created.exitCode, 0) << created.err;
  const ApiClient client{jsonMember(organization.out, "id"), jsonMember(created.out, "clientId"),
                         jsonMember(created.out, "clientSecret")};
  harness.service().auth().refreshRegistryView();

  const std::string token = harness.token(client);
  ASSERT_FALSE(token.empty());
  EXPECT_EQ(harness.codes(token, R"({"codes":[]})").status, 200);
  const std::string authorization = basicAuthorization(client.clientId, client.secret);
  // Secrets where they do not belong: query string, body, a broken header, a bad token.
  harness.request(HttpCall{"POST",
                           "/oauth/token?client_id=" + client.clientId + "&client_secret=" + client.secret,
                           {{"Content-Type", "application/x-www-form-urlencoded"}},
                           "grant_type=client_credentials&client_secret=" + client.secret});
  harness.request(HttpCall{"POST", "/oauth/token", {{"Authorization", authorization + "garbage"}}, "grant_type=x"});
  harness.request(HttpCall{"GET", "/codes?access_token=" + token, {}, ""});
  harness.codes(token + "x", R"({"codes":[]})");
  harness.request(HttpCall{"POST", "/nowhere/" + client.secret, {}, ""});
  harness.stop();

  const std::string base64Credentials = authorization.substr(std::string("Basic ").size());
  const std::vector<std::string> forbidden{client.secret, token, base64Credentials, token.substr(token.rfind('.') + 1)};
  std::vector<std::filesystem::path> files{harness.accessLogFile()};
  for (const auto& entry : std::filesystem::recursive_directory_iterator(harness.dataDir())) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  ASSERT_GE(files.size(), 6u);  // access log, rules.db, registry.db, pepper, signing key, certificate, key
  for (const auto& file : files) {
    const std::string content = readAll(file);
    for (const std::string& secret : forbidden) {
      EXPECT_EQ(content.find(secret), std::string::npos) << file << " holds a secret or token";
    }
  }
  for (const std::string& line : harness.serviceLog()) {
    for (const std::string& secret : forbidden) {
      EXPECT_EQ(line.find(secret), std::string::npos) << "service log: " << line;
    }
  }
  // The access log still names the client (ids are safe to log).
  EXPECT_NE(readAll(harness.accessLogFile()).find(client.clientId), std::string::npos);

  struct stat keyStatus {};
  ASSERT_EQ(::stat((harness.dataDir() / "dev-tls-key.pem").c_str(), &keyStatus), 0);
  EXPECT_EQ(keyStatus.st_mode & 0777, 0600u);
}

}  // namespace
}  // namespace codepayload::server::testing
