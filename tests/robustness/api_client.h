// An API client made the way an operator makes one (the codepayload-admin
// executable on the server's data directory), and an access token for it.
#pragma once

#include <filesystem>
#include <string>

#include "tests/robustness/tls_connection.h"

namespace codepayload::robustness {

struct CreatedApiClient {
  std::string organizationId;
  std::string clientId;
  std::string secret;
};

// A new Starter organization and one client with scope write:codes. Throws
// std::runtime_error with the admin tool's message when a command fails.
CreatedApiClient createApiClient(const std::filesystem::path& dataDir, const std::string& name);

// POST /oauth/token for `client`, retried for up to 5 s while the status is
// 401 (the server may not have read the new client yet); the last answer.
HttpResult requestToken(const ServiceEndpoint& endpoint, const CreatedApiClient& client);

// An access token that POST /codes accepts: asks for one, then waits (up to
// 5 s) until /codes answers 200 with it. Throws std::runtime_error otherwise.
std::string acceptedAccessToken(const ServiceEndpoint& endpoint, const CreatedApiClient& client);

}  // namespace codepayload::robustness
