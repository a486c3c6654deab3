#include "tests/robustness/api_client.h"

#include <chrono>
#include <stdexcept>
#include <thread>

#include "tests/robustness/requests.h"
#include "tests/server/support/admin_process.h"

namespace codepayload::robustness {

namespace {

using server::testing::AdminResult;
using server::testing::jsonMember;
using server::testing::runAdmin;

constexpr std::chrono::seconds kPatience{5};

}  // namespace

CreatedApiClient createApiClient(const std::filesystem::path& dataDir, const std::string& name) {
  const AdminResult organization = runAdmin(dataDir, {"org", "create", "--name", name, "--plan", "starter"});
  if (organization.exitCode != 0) throw std::runtime_error("org create failed: " + organization.err);
  const std::string organizationId = jsonMember(organization.out, "id");
  const AdminResult client =
      runAdmin(dataDir, {"client", "create", "--org", organizationId, "--name", name, "--scope", "write:codes"});
  if (client.exitCode != 0) throw std::runtime_error("client create failed: " + client.err);
  return CreatedApiClient{organizationId, jsonMember(client.out, "clientId"), jsonMember(client.out, "clientSecret")};
}

HttpResult requestToken(const ServiceEndpoint& endpoint, const CreatedApiClient& client) {
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  HttpResult token = exchange(endpoint, tokenCall(client.clientId, client.secret));
  while (token.status == 401 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    token = exchange(endpoint, tokenCall(client.clientId, client.secret));
  }
  return token;
}

std::string acceptedAccessToken(const ServiceEndpoint& endpoint, const CreatedApiClient& client) {
  const HttpResult token = requestToken(endpoint, client);
  if (token.status != 200) {
    throw std::runtime_error("no token for " + client.clientId + ": " + std::to_string(token.status) + " " +
                             token.body);
  }
  const std::string accessToken = accessTokenFrom(token.body);
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (true) {
    const HttpResult codes = exchange(endpoint, codesCall(accessToken, kOneItem));
    if (codes.status == 200) return accessToken;
    if (std::chrono::steady_clock::now() >= deadline) {
      throw std::runtime_error("/codes refuses the token of " + client.clientId + ": " + std::to_string(codes.status) +
                               " " + codes.body);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace codepayload::robustness
