// Clients that hold connections without finishing a request: one byte a
// second (head or body), more slow clients than workers, and many idle
// connections. None of them may hold a worker forever, and a normal client
// (from another address) must be served while they try.
#include <Poco/Exception.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/robustness/api_client.h"
#include "tests/robustness/fault_support.h"
#include "tests/robustness/requests.h"
#include "tests/robustness/server_process.h"
#include "tests/robustness/tls_connection.h"

namespace codepayload::robustness {
namespace {

using server::ServerConfig;
using server::testing::ServiceHarness;
using Clock = std::chrono::steady_clock;

constexpr int kWorkers = 16;
constexpr int kPerAddress = 4;
constexpr std::chrono::seconds kIoTimeout{2};
constexpr std::chrono::seconds kRequestTimeout{6};
// However a request arrives, a connection that has not delivered it whole by
// then has lost its worker: the request deadline plus the watchdog's and the
// test's own slack.
constexpr std::chrono::seconds kWorkerHeldAtMost{10};
// How long a trickle goes on before the test calls the worker held forever.
constexpr std::chrono::seconds kTrickleGivesUpAfter = kWorkerHeldAtMost + std::chrono::seconds(3);

// A normal client on 127.0.0.1 that sends /codes requests one after another
// on fresh connections while the test runs, and records every outcome.
class NormalClient {
 public:
  NormalClient(const ServiceEndpoint& endpoint, const std::string& token, std::chrono::milliseconds pause)
      : thread_([this, endpoint, token, pause] {
          while (running_) {
            const auto started = Clock::now();
            HttpResult result;
            try {
              result = exchange(endpoint, codesCall(token, kOneItem));
            } catch (const Poco::Exception& error) {
              result.body = error.displayText();
            }
            const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
            if (result.status == 200 && result.body == kOneItemResponse) {
              ++served_;
            } else {
              ++failed_;
              if (firstFailure_.empty()) {
                firstFailure_ = "status " + std::to_string(result.status) + " after " + std::to_string(took.count()) +
                                " ms: " + result.body;
              }
            }
            if (took > slowest_) slowest_ = took;
            std::this_thread::sleep_for(pause);
          }
        }) {}

  // Stops after the request in flight; the outcome counts are then final.
  void stop() {
    running_ = false;
    if (thread_.joinable()) thread_.join();
  }
  ~NormalClient() { stop(); }

  int served() const { return served_; }
  int failed() const { return failed_; }
  const std::string& firstFailure() const { return firstFailure_; }
  std::chrono::milliseconds slowest() const { return slowest_; }

 private:
  std::atomic<bool> running_{true};
  int served_ = 0;
  int failed_ = 0;
  std::string firstFailure_;
  std::chrono::milliseconds slowest_{0};
  std::thread thread_;
};

// Sends `bytes` one a second until the server answers or closes; returns
// how long the server let it go on (or nullopt when it never stopped it).
std::optional<std::chrono::milliseconds> trickle(TlsConnection& connection, const std::string& bytes) {
  const auto started = Clock::now();
  for (const char byte : bytes) {
    if (!connection.send(std::string(1, byte))) break;
    if (connection.readable(std::chrono::seconds(1))) break;
    if (Clock::now() - started > kTrickleGivesUpAfter) return std::nullopt;
  }
  if (!connection.readable(std::chrono::seconds(1))) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
}

// The head of a POST /codes request with `token` and a body of `contentLength` bytes.
std::string codesHead(const std::string& token, std::size_t contentLength) {
  return "POST /codes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(contentLength) + "\r\n\r\n";
}

// Stops the normal client; it must have been served throughout.
void expectServedThroughout(NormalClient& normal) {
  normal.stop();
  EXPECT_GT(normal.served(), 0);
  EXPECT_EQ(normal.failed(), 0) << normal.firstFailure();
}

class SlowAndIdleClients : public ::testing::Test {
 protected:
  void SetUp() override {
    harness_ = std::make_unique<ServiceHarness>([](ServerConfig& config) {
      config.minThreads = 2;
      config.maxThreads = kWorkers;
      config.maxQueued = kWorkers;
      config.ioTimeout = kIoTimeout;
      config.keepAliveTimeout = kIoTimeout;
      config.requestTimeout = kRequestTimeout;
      config.maxConnectionsPerAddress = kPerAddress;
    });
    endpoint_ = ServiceEndpoint{harness_->port(), harness_->clientContext()};
    token_ = harness_->token(harness_->createClient({"write:codes"}));
  }

  std::string codesHead(std::size_t contentLength) const { return robustness::codesHead(token_, contentLength); }

  // After a trickle: the deadline closed the connection without an answer
  // (the worker is blocked in a TLS read; nothing can be written beside it),
  // and the service logged it.
  void expectClosedByTheDeadline(TlsConnection& connection, std::chrono::milliseconds held) {
    // Not cut early (the 2 s I/O timeout never fires: a byte comes every
    // second). The deadline starts when the server takes the connection, a
    // little before the end of the TLS handshake the client counts from.
    EXPECT_GE(held, kRequestTimeout - std::chrono::milliseconds(500));
    EXPECT_LE(held, kWorkerHeldAtMost);
    const HttpResult result = connection.readResponse(std::chrono::seconds(1));
    EXPECT_EQ(result.status, 0) << result.body;
    EXPECT_TRUE(connection.closedByServer());
    const std::string logged = "closed the connection from " + connection.localAddress() +
                               ": no whole request within 6000 ms (http.requestTimeout)";
    // The watchdog logs right after the shutdown the client has seen.
    std::vector<std::string> log;
    for (const auto until = Clock::now() + std::chrono::seconds(2); Clock::now() < until;) {
      log = harness_->serviceLog();
      if (std::count(log.begin(), log.end(), logged) != 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(std::count(log.begin(), log.end(), logged), 1) << logged;
  }

  std::unique_ptr<ServiceHarness> harness_;
  ServiceEndpoint endpoint_;
  std::string token_;
};

TEST_F(SlowAndIdleClients, ARequestHeadTrickledAtOneByteASecondLosesItsWorker) {
  NormalClient normal(endpoint_, token_, std::chrono::milliseconds(500));
  TlsConnection slow(endpoint_, "127.0.0.2");
  const std::optional<std::chrono::milliseconds> held = trickle(slow, codesHead(2) + "{}");
  ASSERT_TRUE(held.has_value()) << "the server still reads a one-byte-a-second head after "
                                << kTrickleGivesUpAfter.count() << " s";
  expectClosedByTheDeadline(slow, *held);
  expectServedThroughout(normal);
}

TEST_F(SlowAndIdleClients, ABodyTrickledAtOneByteASecondLosesItsWorker) {
  NormalClient normal(endpoint_, token_, std::chrono::milliseconds(500));
  TlsConnection slow(endpoint_, "127.0.0.2");
  const std::string body(kOneItem);
  ASSERT_TRUE(slow.send(codesHead(body.size())));
  const std::optional<std::chrono::milliseconds> held = trickle(slow, body);
  ASSERT_TRUE(held.has_value()) << "the server still reads a one-byte-a-second body after "
                                << kTrickleGivesUpAfter.count() << " s";
  expectClosedByTheDeadline(slow, *held);
  expectServedThroughout(normal);
}

TEST_F(SlowAndIdleClients, AKeptAliveConnectionOutlivesTheRequestTimeout) {
  // Nine requests a second apart on one connection: 8 s in all, longer than
  // the 6 s deadline, which starts again after every response.
  TlsConnection connection(endpoint_, "127.0.0.2");
  const std::string request = codesHead(std::string(kOneItem).size()) + std::string(kOneItem);
  for (int index = 0; index < 9; ++index) {
    SCOPED_TRACE(index);
    if (index > 0) std::this_thread::sleep_for(std::chrono::seconds(1));
    ASSERT_TRUE(connection.send(request));
    const HttpResult result = connection.readResponse(std::chrono::seconds(5));
    ASSERT_EQ(result.status, 200) << result.body;
    EXPECT_EQ(result.body, kOneItemResponse);
  }
  EXPECT_EQ(harness_->service().connectionCounts().closedOverdue, 0u);
}

TEST_F(SlowAndIdleClients, MoreSlowClientsThanWorkersDoNotLockOthersOut) {
  // Twice as many tricklers as workers, from another address, each on its own
  // thread: connect, then one byte of the head a second until the server
  // answers or closes (or the test gives up).
  const std::string head = codesHead(2);
  const auto started = Clock::now();
  std::vector<int> releasedAfterSeconds(2 * kWorkers, -1);
  std::vector<std::thread> tricklers;
  for (std::size_t index = 0; index < releasedAfterSeconds.size(); ++index) {
    tricklers.emplace_back([&, index] {
      try {
        TlsConnection slow(endpoint_, "127.0.0.2");
        for (const char byte : head) {
          if (!slow.send(std::string(1, byte)) || slow.readable(std::chrono::seconds(1))) break;
          if (Clock::now() - started > kTrickleGivesUpAfter) return;
        }
      } catch (const Poco::Exception&) {
        // Refused or cut during the handshake: released as well.
      }
      releasedAfterSeconds[index] =
          static_cast<int>(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started).count());
    });
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));  // the tricklers hold every worker now
  const auto asked = Clock::now();
  HttpResult result;
  try {
    result = exchange(endpoint_, codesCall(token_, kOneItem));
  } catch (const Poco::Exception& error) {
    result.body = error.displayText();
  }
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - asked);
  for (std::thread& trickler : tricklers) trickler.join();
  EXPECT_EQ(result.status, 200) << "after " << waited.count() << " ms: " << result.body;
  EXPECT_EQ(result.body, kOneItemResponse);
  // Served before any slow client's deadline: it did not wait behind them.
  EXPECT_LT(waited, kRequestTimeout) << "a normal client waited this long behind the slow ones";
  for (std::size_t index = 0; index < releasedAfterSeconds.size(); ++index) {
    EXPECT_GE(releasedAfterSeconds[index], 0)
        << "slow client " << index << " still held its connection after " << kTrickleGivesUpAfter.count() << " s";
  }
  // Four took their address's slots and were closed by the deadline; the
  // other 28 were refused at accept.
  const server::HttpTransport::Counts counts = harness_->service().connectionCounts();
  EXPECT_EQ(counts.refusedOverAddressLimit, 2u * kWorkers - kPerAddress);
  EXPECT_EQ(counts.refusedQueueFull, 0u);
  EXPECT_EQ(counts.closedOverdue, static_cast<std::uint64_t>(kPerAddress));
}

TEST_F(SlowAndIdleClients, ManyIdleConnectionsDoNotStopOthersBeingServed) {
  // 200 TCP connections from 127.0.0.3 that never send a byte (not even a TLS
  // hello), held open while a normal client on 127.0.0.1 works.
  constexpr int kIdle = 200;
  std::vector<Poco::Net::StreamSocket> idle;
  for (int index = 0; index < kIdle; ++index) {
    Poco::Net::StreamSocket socket(Poco::Net::SocketAddress::IPv4);
    socket.impl()->bind(Poco::Net::SocketAddress("127.0.0.3", 0));
    socket.connect(Poco::Net::SocketAddress("127.0.0.1", endpoint_.port), Poco::Timespan(5, 0));
    idle.push_back(socket);
  }
  const auto opened = Clock::now();
  int served = 0;
  std::string firstFailure;
  std::chrono::milliseconds slowest{0};
  while (Clock::now() - opened < std::chrono::seconds(6)) {
    const auto asked = Clock::now();
    HttpResult result;
    try {
      result = exchange(endpoint_, codesCall(token_, kOneItem));
    } catch (const Poco::Exception& error) {
      result.body = error.displayText();
    }
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - asked);
    slowest = std::max(slowest, took);
    if (result.status == 200 && result.body == kOneItemResponse && took < std::chrono::seconds(3)) {
      ++served;
    } else if (firstFailure.empty()) {
      firstFailure =
          "status " + std::to_string(result.status) + " after " + std::to_string(took.count()) + " ms: " + result.body;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_TRUE(firstFailure.empty()) << firstFailure;
  EXPECT_GT(served, 0);
  // Every idle connection is closed by the server, none is kept forever.
  int closed = 0;
  const auto deadline = opened + std::chrono::seconds(30);
  for (Poco::Net::StreamSocket& socket : idle) {
    char byte;
    while (Clock::now() < deadline) {
      try {
        socket.setReceiveTimeout(Poco::Timespan(1, 0));
        if (socket.receiveBytes(&byte, 1) <= 0) {
          ++closed;
          break;
        }
      } catch (const Poco::TimeoutException&) {
        continue;
      } catch (const Poco::Exception&) {
        ++closed;  // reset
        break;
      }
    }
  }
  EXPECT_EQ(closed, kIdle);
  // The kernel held every one back until the first-bytes deadline
  // (http.firstBytesTimeout, TCP_DEFER_ACCEPT); still silent then, each was
  // refused at accept: none took a worker or its address's slots.
  const server::HttpTransport::Counts counts = harness_->service().connectionCounts();
  EXPECT_EQ(counts.refusedSilent, static_cast<std::uint64_t>(kIdle));
  EXPECT_EQ(counts.refusedOverAddressLimit, 0u);
  EXPECT_EQ(counts.refusedQueueFull, 0u);
  EXPECT_EQ(counts.closedOverdue, 0u);
  EXPECT_EQ(counts.closedHandshakeOverdue, 0u);
  const std::vector<std::string> log = harness_->serviceLog();
  EXPECT_NE(std::find_if(log.begin(), log.end(),
                         [](const std::string& line) {
                           return line.starts_with("refused ") &&
                                  line.ends_with(
                                      " new connection(s) that sent nothing within http.firstBytesTimeout; the "
                                      "last from 127.0.0.3");
                         }),
            log.end());
  const HttpResult after = exchange(endpoint_, codesCall(token_, kOneItem));
  EXPECT_EQ(after.status, 200);
  EXPECT_EQ(after.body, kOneItemResponse);
}

// The server executable, not the service in process (whose test binary
// ignores SIGPIPE itself): the handler answers a body cut by the deadline on
// a socket already shut down; the write fails and the process serves on.
TEST(SlowClientOfTheServerProcess, ABodyCutByTheDeadlineLeavesTheServerRunning) {
  TemporaryFolder folder("slow-body");
  const std::filesystem::path dataDir = folder.path() / "data";
  ServerProcess server(
      dataDir,
      {{"CODEPAYLOAD_REQUEST_TIMEOUT", "3"}, {"CODEPAYLOAD_IO_TIMEOUT", "2"}, {"CODEPAYLOAD_KEEPALIVE_TIMEOUT", "2"}});
  const CreatedApiClient client = createApiClient(dataDir, "slow-body");
  const HttpResult tokenResponse = requestToken(server.endpoint(), client);
  ASSERT_EQ(tokenResponse.status, 200) << tokenResponse.body;
  const std::string token = accessTokenFrom(tokenResponse.body);
  TlsConnection slow(server.endpoint(), "127.0.0.2");
  const std::string body(kOneItem);
  ASSERT_TRUE(slow.send(codesHead(token, body.size())));
  const std::optional<std::chrono::milliseconds> held = trickle(slow, body);
  ASSERT_TRUE(held.has_value());
  EXPECT_GE(*held, std::chrono::milliseconds(2500));
  EXPECT_LE(*held, std::chrono::seconds(6));
  EXPECT_EQ(slow.readResponse(std::chrono::seconds(1)).status, 0);
  EXPECT_TRUE(slow.closedByServer());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the handler's write has failed by now
  EXPECT_FALSE(server.process().waitFor(std::chrono::milliseconds(1)).has_value()) << server.process().err();
  const HttpResult after = exchange(server.endpoint(), codesCall(token, kOneItem));
  EXPECT_EQ(after.status, 200) << after.body;
  EXPECT_EQ(after.body, kOneItemResponse);
}

}  // namespace
}  // namespace codepayload::robustness
