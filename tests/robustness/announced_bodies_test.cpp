// Memory before the body: bodies announced and never sent must cost the
// server the bytes that came, not the bytes announced. The real executable,
// default settings: 12 API clients of one organization (clients are free to
// create) open 24 connections, each announcing a maximum-size /codes body
// (32 MiB) and sending 48 bytes of it. The organization's large-request
// slots (3) take the first three; every other request is answered 429 at
// once. The server's resident memory must barely move, and must come back
// once the clients abort.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/memory_release.h"
#include "tests/robustness/api_client.h"
#include "tests/robustness/fault_support.h"
#include "tests/robustness/requests.h"
#include "tests/robustness/server_process.h"
#include "tests/server/support/admin_process.h"

namespace codepayload::robustness {
namespace {

using namespace std::chrono_literals;

constexpr std::size_t kMiB = 1024 * 1024;
constexpr int kClients = 12;
constexpr int kConnectionsPerClient = 2;
constexpr std::size_t kAnnounced = 32 * kMiB;  // limits.maxBodyBytes
constexpr int kOrganizationSlots = 3;          // limits.maxLargeRequestsPerOrganization

constexpr const char* kOrganizationRefusal =
    R"({"errors":[{"code":"TooManyRequests","path":null,"message":"This client's organization already has as )"
    R"(many large requests in progress as it may (3); send this one again when one of them is answered."}]})";

TEST(AnnouncedBodies, MemoryFollowsTheBytesReceivedAndComesBackAfterTheAborts) {
  TemporaryFolder folder("announced-bodies");
  const std::filesystem::path dataDir = folder.path() / "data";
  ServerProcess server(dataDir);
  const CreatedApiClient first = createApiClient(dataDir, "announced-bodies");
  std::vector<CreatedApiClient> clients{first};
  for (int index = 1; index < kClients; ++index) {
    const server::testing::AdminResult created = server::testing::runAdmin(
        dataDir, {"client", "create", "--org", first.organizationId, "--name", "client-" + std::to_string(index),
                  "--scope", "write:codes"});
    ASSERT_EQ(created.exitCode, 0) << created.err;
    clients.push_back(CreatedApiClient{first.organizationId, server::testing::jsonMember(created.out, "clientId"),
                                       server::testing::jsonMember(created.out, "clientSecret")});
  }
  std::vector<std::string> tokens;
  for (const CreatedApiClient& client : clients) tokens.push_back(acceptedAccessToken(server.endpoint(), client));

  const std::size_t idle = server.residentBytes();
  const std::string body = R"({"codes":[{"reference":"ab","primaryKey":{"key":)";
  ASSERT_EQ(body.size(), 48u);
  std::vector<std::unique_ptr<TlsConnection>> connections;
  for (int round = 0; round < kConnectionsPerClient; ++round) {
    for (const std::string& token : tokens) {
      auto connection = std::make_unique<TlsConnection>(server.endpoint(), "127.0.0.2");
      ASSERT_TRUE(connection->send("POST /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token +
                                   "\r\nContent-Type: application/json\r\nContent-Length: " +
                                   std::to_string(kAnnounced) + "\r\n\r\n" + body));
      connections.push_back(std::move(connection));
    }
  }
  // Three wait for their bodies; every other one is refused at once.
  int waiting = 0;
  int refused = 0;
  for (const auto& connection : connections) {
    const HttpResult result = connection->readResponse(std::chrono::milliseconds(500));
    if (result.status == 0) {
      ++waiting;
      continue;
    }
    EXPECT_EQ(result.status, 429);
    EXPECT_EQ(result.header("retry-after"), "1");
    EXPECT_EQ(result.body, kOrganizationRefusal);
    ++refused;
  }
  EXPECT_EQ(waiting, kOrganizationSlots);
  EXPECT_EQ(refused, kClients * kConnectionsPerClient - kOrganizationSlots);
  const std::size_t holding = server.residentBytes();

  // The clients abort: every connection is reset.
  connections.clear();
  std::size_t after = server.residentBytes();
  const std::size_t margin = std::max<std::size_t>(16 * kMiB, idle / 5);
  for (int wait = 0; wait < 40 && after > idle + margin; ++wait) {
    std::this_thread::sleep_for(50ms);
    after = server.residentBytes();
  }
  std::printf("announced bodies: RSS idle %.1f MiB, with %d x 32 MiB announced %.1f MiB, after the aborts %.1f MiB\n",
              static_cast<double>(idle) / kMiB, kClients * kConnectionsPerClient,
              static_cast<double>(holding) / kMiB, static_cast<double>(after) / kMiB);
  if (!common::freedMemoryCanBeReturned()) {
    std::printf("announced bodies: the RSS bounds are not asserted under AddressSanitizer\n");
  } else {
    // What came is 24 heads and 48-byte bodies: a few MiB of buffers and TLS
    // state at most, never the 768 MiB announced.
    EXPECT_LE(holding, idle + margin);
    EXPECT_LE(after, idle + margin);
  }
  EXPECT_EQ(healthBody(server.endpoint()), kHealth2026);
  EXPECT_EQ(server.process().terminate(), (ChildExit{false, 0})) << server.process().err();
}

}  // namespace
}  // namespace codepayload::robustness
