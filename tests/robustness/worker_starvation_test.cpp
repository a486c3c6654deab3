// The worker starvation scenario (D-T1), against the server process with
// its default settings: 40 connections from 127.0.0.2 trickle header lines one
// a second, and 300 TCP connections from 127.0.0.3 never start the TLS
// handshake; both bad clients reopen every connection the server closes, so
// the pressure lasts. Meanwhile a normal client on 127.0.0.1 sends one-item
// /codes requests on fresh connections (the worst case: each needs a worker)
// and must be answered, exactly, within 1 s every time. Then each of the two
// defences on its own, in the service in process: a silent connection is
// refused at accept, a stalled TLS handshake meets its own deadline.
#include <Poco/Exception.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <gtest/gtest.h>
#include <poll.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "tests/robustness/api_client.h"
#include "tests/robustness/fault_support.h"
#include "tests/robustness/requests.h"
#include "tests/robustness/server_process.h"
#include "tests/robustness/tls_connection.h"
#include "tests/server/support/service_harness.h"

namespace codepayload::robustness {
namespace {

using Clock = std::chrono::steady_clock;
using server::ServerConfig;
using server::testing::ServiceHarness;
using std::chrono::milliseconds;

constexpr int kTricklers = 40;
constexpr int kSilentConnections = 300;
// The bad clients get this long to take whatever the server lets them hold.
constexpr std::chrono::seconds kRampUp{2};
// Then the normal client works this long beside them: longer than every
// short deadline involved, so connections the server closes are reopened
// and taken again while it watches.
constexpr std::chrono::seconds kObserved{12};
// The bound a normal client is answered within: 1 s. A sanitizer build runs the server several times
// slower (AddressSanitizer checks every access, each new connection's TLS
// handshake included), so there, on CI's two busy cores, it is 3 s: still far
// below what starvation costs (docs/decisions.md D-T1).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitizedBuild = true;
#else
constexpr bool kSanitizedBuild = false;
#endif
#else
constexpr bool kSanitizedBuild = false;
#endif
constexpr milliseconds kAnsweredWithin{kSanitizedBuild ? 3000 : 1000};

// 40 connections from 127.0.0.2, each on its own thread: the TLS handshake,
// then "POST /codes HTTP/1.1" and one more header line a second, never the
// end of the head; a connection the server closes (or refuses) is reopened.
class Tricklers {
 public:
  explicit Tricklers(const ServiceEndpoint& endpoint) {
    for (int index = 0; index < kTricklers; ++index) {
      threads_.emplace_back([this, endpoint, index] { trickle(endpoint, index); });
    }
  }
  ~Tricklers() { stop(); }

  void stop() {
    running_ = false;
    for (std::thread& thread : threads_) {
      if (thread.joinable()) thread.join();
    }
  }

  // Connections that completed the TLS handshake, and the most held at once.
  int opened() const { return opened_; }
  int mostHeld() const { return mostHeld_; }

 private:
  void trickle(const ServiceEndpoint& endpoint, int index) {
    while (running_) {
      try {
        TlsConnection connection(endpoint, "127.0.0.2");
        ++opened_;
        const int held = ++held_;
        int most = mostHeld_;
        while (held > most && !mostHeld_.compare_exchange_weak(most, held)) {
        }
        bool open = connection.send("POST /codes HTTP/1.1\r\n");
        for (int line = 0; open && running_; ++line) {
          // Closed (or answered) by the server: reopen.
          if (connection.readable(std::chrono::seconds(1))) break;
          open = connection.send("X-Trickle-" + std::to_string(index) + "-" + std::to_string(line) + ": x\r\n");
        }
        --held_;
      } catch (const Poco::Exception&) {
        // Refused at accept (the address's limit) or cut in the handshake.
        std::this_thread::sleep_for(milliseconds(200));
      }
    }
  }

  std::atomic<bool> running_{true};
  std::atomic<int> opened_{0};
  std::atomic<int> held_{0};
  std::atomic<int> mostHeld_{0};
  std::vector<std::thread> threads_;
};

// 300 TCP connections from 127.0.0.3 that never send a byte; one thread keeps
// all 300 open, reopening each one the server closes half a second later (a
// client that retries, not a flood of new connections).
class SilentConnections {
 public:
  explicit SilentConnections(std::uint16_t port) : port_(port), thread_([this] { keepOpen(); }) {}
  ~SilentConnections() { stop(); }

  void stop() {
    running_ = false;
    if (thread_.joinable()) thread_.join();
  }

  // Connections established (the client side), and those the server closed.
  int opened() const { return opened_; }
  int closedByServer() const { return closedByServer_; }

 private:
  bool open(Poco::Net::StreamSocket& socket) {
    try {
      socket = Poco::Net::StreamSocket(Poco::Net::SocketAddress::IPv4);
      socket.impl()->bind(Poco::Net::SocketAddress("127.0.0.3", 0));
      socket.connect(Poco::Net::SocketAddress("127.0.0.1", port_), Poco::Timespan(1, 0));
      ++opened_;
      return true;
    } catch (const Poco::Exception&) {
      return false;
    }
  }

  void keepOpen() {
    std::vector<Poco::Net::StreamSocket> sockets(kSilentConnections);
    std::vector<bool> isOpen(kSilentConnections, false);
    std::vector<Clock::time_point> reopenAt(kSilentConnections, Clock::now());
    for (int index = 0; index < kSilentConnections && running_; ++index) isOpen[index] = open(sockets[index]);
    std::vector<pollfd> polled;
    std::vector<int> indexOf;
    while (running_) {
      polled.clear();
      indexOf.clear();
      for (int index = 0; index < kSilentConnections; ++index) {
        if (!isOpen[index]) {
          if (Clock::now() < reopenAt[index]) continue;
          isOpen[index] = running_ && open(sockets[index]);
          if (!isOpen[index]) {
            reopenAt[index] = Clock::now() + kReopenAfter;
            continue;
          }
        }
        polled.push_back(pollfd{sockets[index].impl()->sockfd(), POLLIN, 0});
        indexOf.push_back(index);
      }
      if (::poll(polled.data(), polled.size(), 100) <= 0) continue;
      for (std::size_t at = 0; at < polled.size(); ++at) {
        if (polled[at].revents == 0) continue;
        // The server sends nothing to a silent connection: readable is the close.
        ++closedByServer_;
        sockets[indexOf[at]].close();
        isOpen[indexOf[at]] = false;
        reopenAt[indexOf[at]] = Clock::now() + kReopenAfter;
      }
    }
  }

  static constexpr milliseconds kReopenAfter{500};

  const std::uint16_t port_;
  std::atomic<bool> running_{true};
  std::atomic<int> opened_{0};
  std::atomic<int> closedByServer_{0};
  std::thread thread_;
};

TEST(WorkerStarvation, TricklersAndSilentConnectionsFromTwoAddressesLeaveAThirdServedWithinASecond) {
  TemporaryFolder folder("starvation");
  const std::filesystem::path dataDir = folder.path() / "data";
  ServerProcess server(dataDir);  // the default settings
  const CreatedApiClient client = createApiClient(dataDir, "starvation");
  const std::string token = acceptedAccessToken(server.endpoint(), client);

  SilentConnections silent(server.endpoint().port);
  Tricklers tricklers(server.endpoint());
  std::this_thread::sleep_for(kRampUp);

  int served = 0;
  int failed = 0;
  std::string firstFailure;
  milliseconds slowest{0};
  for (const auto until = Clock::now() + kObserved; Clock::now() < until;) {
    const auto asked = Clock::now();
    HttpResult result;
    try {
      result = exchange(server.endpoint(), codesCall(token, kOneItem));
    } catch (const Poco::Exception& error) {
      result.body = error.displayText();
    }
    const auto took = std::chrono::duration_cast<milliseconds>(Clock::now() - asked);
    slowest = std::max(slowest, took);
    if (result.status == 200 && result.body == kOneItemResponse && took < kAnsweredWithin) {
      ++served;
    } else {
      ++failed;
      if (firstFailure.empty()) {
        firstFailure = "status " + std::to_string(result.status) + " after " + std::to_string(took.count()) +
                       " ms: " + result.body;
      }
    }
    std::this_thread::sleep_for(milliseconds(100));
  }
  tricklers.stop();
  silent.stop();

  EXPECT_EQ(failed, 0) << firstFailure << " (slowest answer " << slowest.count() << " ms)";
  // One request at least every kAnsweredWithin + 0.1 s (the answers were
  // faster than kAnsweredWithin, the pauses 0.1 s).
  EXPECT_GE(served, static_cast<int>(kObserved / (kAnsweredWithin + milliseconds(100))));
  std::cout << "normal client: " << served << " answers, slowest " << slowest.count() << " ms\n";
  // The bad clients were there throughout: the tricklers held as many
  // connections as their address may (half the 64 workers), and every silent
  // connection was established at the TCP level.
  EXPECT_EQ(tricklers.mostHeld(), 32);
  EXPECT_GE(silent.opened(), kSilentConnections);
  std::cout << "tricklers: " << tricklers.opened() << " connections opened, at most " << tricklers.mostHeld()
            << " at once; silent: " << silent.opened() << " opened, " << silent.closedByServer()
            << " closed by the server\n";
}

// A plain TCP connection from `sourceAddress` to the service's HTTPS port.
Poco::Net::StreamSocket connectFrom(const std::string& sourceAddress, std::uint16_t port) {
  Poco::Net::StreamSocket socket(Poco::Net::SocketAddress::IPv4);
  socket.impl()->bind(Poco::Net::SocketAddress(sourceAddress, 0));
  socket.connect(Poco::Net::SocketAddress("127.0.0.1", port), Poco::Timespan(5, 0));
  return socket;
}

// How long until the server closes `socket` (nothing may come before the
// close); -1 ms when it is still open after 10 s.
milliseconds closedByServerAfter(Poco::Net::StreamSocket& socket) {
  const auto started = Clock::now();
  socket.setReceiveTimeout(Poco::Timespan(10, 0));
  char byte;
  try {
    if (socket.receiveBytes(&byte, 1) > 0) return milliseconds(-2);
  } catch (const Poco::TimeoutException&) {
    return milliseconds(-1);
  } catch (const Poco::Exception&) {
    // reset: closed as well
  }
  return std::chrono::duration_cast<milliseconds>(Clock::now() - started);
}

// The service's log holds `line` (the watchdog logs right after the close
// the client has seen).
bool loggedSoon(const ServiceHarness& harness, const std::string& line) {
  for (const auto until = Clock::now() + std::chrono::seconds(2); Clock::now() < until;) {
    const std::vector<std::string> log = harness.serviceLog();
    if (std::find(log.begin(), log.end(), line) != log.end()) return true;
    std::this_thread::sleep_for(milliseconds(20));
  }
  return false;
}

TEST(WorkerStarvation, ASilentConnectionIsRefusedAtAcceptAfterTheFirstBytesTimeout) {
  ServiceHarness harness([](ServerConfig& config) { config.firstBytesTimeout = std::chrono::seconds(1); });
  Poco::Net::StreamSocket silent = connectFrom("127.0.0.3", harness.port());
  const milliseconds closedAfter = closedByServerAfter(silent);
  // Handed over by the kernel after its first SYN-ACK retransmission (1 s).
  EXPECT_GE(closedAfter, milliseconds(900));
  EXPECT_LE(closedAfter, milliseconds(3000));
  const server::HttpTransport::Counts counts = harness.service().connectionCounts();
  EXPECT_EQ(counts.refusedSilent, 1u);
  EXPECT_EQ(counts.refusedOverAddressLimit, 0u);
  EXPECT_EQ(counts.closedHandshakeOverdue, 0u);
  EXPECT_EQ(counts.closedOverdue, 0u);
  EXPECT_TRUE(loggedSoon(harness,
                         "refused 1 new connection(s) that sent nothing within http.firstBytesTimeout; the last "
                         "from 127.0.0.3"));
  // A client that speaks at once is served as ever.
  const ServiceEndpoint endpoint{harness.port(), harness.clientContext()};
  const HttpResult answer = exchange(endpoint, {"GET", "/healthz", {}, ""});
  EXPECT_EQ(answer.status, 200) << answer.body;
}

TEST(WorkerStarvation, AStalledTlsHandshakeIsClosedByItsOwnDeadline) {
  ServiceHarness harness([](ServerConfig& config) { config.tlsHandshakeTimeout = std::chrono::seconds(1); });
  Poco::Net::StreamSocket stalled = connectFrom("127.0.0.2", harness.port());
  const std::string local = stalled.address().toString();
  // The header of a handshake record announcing 128 bytes, and none of them.
  const std::string recordHeader("\x16\x03\x01\x00\x80", 5);
  ASSERT_EQ(stalled.sendBytes(recordHeader.data(), static_cast<int>(recordHeader.size())), 5);
  const milliseconds closedAfter = closedByServerAfter(stalled);
  // Before the 5 s I/O timeout and the 30 s request deadline.
  EXPECT_GE(closedAfter, milliseconds(900));
  EXPECT_LE(closedAfter, milliseconds(3000));
  EXPECT_TRUE(loggedSoon(
      harness, "closed the connection from " + local + ": no TLS handshake within 1000 ms (http.tlsHandshakeTimeout)"));
  const server::HttpTransport::Counts counts = harness.service().connectionCounts();
  EXPECT_EQ(counts.closedHandshakeOverdue, 1u);
  EXPECT_EQ(counts.closedOverdue, 0u);
  EXPECT_EQ(counts.refusedSilent, 0u);
}

}  // namespace
}  // namespace codepayload::robustness
