// A client created with codepayload-admin while the server runs: the token
// endpoint reads the registry database, /codes checks tokens against the
// server's in-memory registry view. Once a token is issued, /codes must honour
// it: a caller cannot tell "not refreshed yet" from "revoked".
#include <gtest/gtest.h>

#include <string>

#include "tests/robustness/api_client.h"
#include "tests/robustness/fault_support.h"
#include "tests/robustness/requests.h"
#include "tests/robustness/server_process.h"

namespace codepayload::robustness {
namespace {

TEST(FreshClient, ATokenIsHonouredByCodesAsSoonAsItIsIssued) {
  TemporaryFolder folder("fresh-client");
  const std::filesystem::path dataDir = folder.path() / "data";
  ServerProcess server(dataDir);
  // Five clients, each used at once: the registry view refreshes every
  // 250 ms, so a gap between the two checks shows in nearly every round.
  for (int round = 0; round < 5; ++round) {
    SCOPED_TRACE(round);
    const CreatedApiClient client = createApiClient(dataDir, "fresh-" + std::to_string(round));
    const HttpResult token = requestToken(server.endpoint(), client);
    ASSERT_EQ(token.status, 200) << token.body;
    const HttpResult codes = exchange(server.endpoint(), codesCall(accessTokenFrom(token.body), kOneItem));
    EXPECT_EQ(codes.status, 200) << codes.body;
    EXPECT_EQ(codes.body, kOneItemResponse);
  }
}

}  // namespace
}  // namespace codepayload::robustness
