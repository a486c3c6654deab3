// The response side: clients that read their answers slowly, or not at all.
//  - SlowReaders: two addresses, 32 connections each (every slot they may
//    hold), each pipelining 900 requests for the OpenAPI document (about
//    32 MB of answers) and reading a few KB a second. A normal client from a
//    third address must be answered within a second throughout, and every
//    slow reader must be closed for reading slower than http.minSendRate.
//  - FailedWrite: a client that pipelines many requests and resets its
//    connection without reading: the connection ends at the first failed
//    write, and only the requests answered until then are logged.
#include <Poco/Exception.h>
#include <Poco/Net/SecureStreamSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/robustness/fault_support.h"
#include "tests/robustness/requests.h"
#include "tests/robustness/server_process.h"
#include "tests/robustness/tls_connection.h"
#include "tests/server/support/service_harness.h"

namespace codepayload::robustness {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr int kReadersPerAddress = 32;  // the default http.maxConnectionsPerAddress
constexpr int kPipelined = 900;
// A reader takes this much every 250 ms: about 6 KB a second.
constexpr int kReadBytes = 1500;
constexpr auto kReadPause = 250ms;
// How long the attack may go on before the test calls a reader kept forever.
constexpr auto kAttackGivesUpAfter = 60s;

const std::string kOpenApiRequest = "GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

// A TLS connection from `sourceAddress` with a small receive buffer, so that
// what the kernel holds for the reader is small too.
Poco::Net::SecureStreamSocket slowReaderSocket(const ServiceEndpoint& endpoint, const std::string& sourceAddress) {
  Poco::Net::StreamSocket plain(Poco::Net::SocketAddress::IPv4);
  plain.impl()->bind(Poco::Net::SocketAddress(sourceAddress, 0));
  plain.setReceiveBufferSize(8 * 1024);
  plain.connect(Poco::Net::SocketAddress("127.0.0.1", endpoint.port), Poco::Timespan(5, 0));
  plain.setSendTimeout(Poco::Timespan(10, 0));
  return Poco::Net::SecureStreamSocket::attach(plain, endpoint.context);
}

// One slow reader: pipelines the requests, then reads a little every
// 250 ms until the server's close reaches it or the test stops it.
class SlowReader {
 public:
  SlowReader(const ServiceEndpoint& endpoint, const std::string& sourceAddress, const std::atomic<bool>& stop)
      : thread_([this, endpoint, sourceAddress, &stop] {
          try {
            Poco::Net::SecureStreamSocket socket = slowReaderSocket(endpoint, sourceAddress);
            localAddress_ = socket.address().toString();
            std::string requests;
            for (int index = 0; index < kPipelined; ++index) requests += kOpenApiRequest;
            socket.sendBytes(requests.data(), static_cast<int>(requests.size()));
            std::vector<char> chunk(kReadBytes);
            socket.setReceiveTimeout(Poco::Timespan(0, 100'000));
            while (!stop.load()) {
              std::this_thread::sleep_for(kReadPause);
              try {
                const int got = socket.receiveBytes(chunk.data(), static_cast<int>(chunk.size()));
                if (got <= 0) break;
                read_ += static_cast<std::size_t>(got);
              } catch (const Poco::TimeoutException&) {
                continue;
              }
            }
          } catch (const Poco::Exception&) {
            // Reset by the server: ended as well.
          }
        }) {}
  ~SlowReader() { join(); }

  void join() {
    if (thread_.joinable()) thread_.join();
  }
  // After join().
  const std::string& localAddress() const { return localAddress_; }
  std::size_t bytesRead() const { return read_; }

 private:
  std::string localAddress_;
  std::size_t read_ = 0;
  std::thread thread_;
};

TEST(SlowReaders, TwoAddressesReadingAnswersSlowlyLeaveAThirdAnsweredWithinASecond) {
  TemporaryFolder folder("slow-readers");
  // Default settings: 64 workers, 32 connections per address, http.ioTimeout
  // 5 s, http.minSendRate 16 KiB a second.
  ServerProcess server(folder.path() / "data");
  const std::string health = healthBody(server.endpoint());
  ASSERT_FALSE(health.empty());

  std::atomic<bool> stop{false};
  std::vector<std::unique_ptr<SlowReader>> readers;
  for (const char* address : {"127.0.0.2", "127.0.0.3"}) {
    for (int index = 0; index < kReadersPerAddress; ++index) {
      readers.push_back(std::make_unique<SlowReader>(server.endpoint(), address, stop));
    }
  }

  // The normal client: a fresh connection every 250 ms from 127.0.0.4.
  const std::regex closedLine(
      R"(closed the connection from (127\.0\.0\.[23]:[0-9]+): it read its answers slower than 16384 bytes a second \(http\.minSendRate\))");
  int answered = 0;
  std::string firstFailure;
  std::chrono::milliseconds slowest{0};
  std::set<std::string> closedReaders;
  const auto started = Clock::now();
  while (Clock::now() - started < kAttackGivesUpAfter) {
    const auto asked = Clock::now();
    HttpResult result;
    try {
      result = exchange(server.endpoint(), HttpCall{"GET", "/healthz", {}, ""}, "127.0.0.4");
    } catch (const Poco::Exception& error) {
      result.body = error.displayText();
    }
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - asked);
    slowest = std::max(slowest, took);
    if (result.status == 200 && result.body == health && took < 1s) {
      ++answered;
    } else if (firstFailure.empty()) {
      firstFailure = "after " + std::to_string(std::chrono::duration_cast<std::chrono::seconds>(asked - started).count()) +
                     " s: status " + std::to_string(result.status) + " in " + std::to_string(took.count()) +
                     " ms: " + result.body;
    }
    const std::string log = server.process().err();
    for (auto match = std::sregex_iterator(log.begin(), log.end(), closedLine); match != std::sregex_iterator();
         ++match) {
      closedReaders.insert((*match)[1]);
    }
    if (closedReaders.size() == readers.size()) break;
    std::this_thread::sleep_for(250ms);
  }
  const auto attack = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started);
  stop = true;
  std::size_t read = 0;
  std::set<std::string> readerAddresses;
  for (const auto& reader : readers) {
    reader->join();
    read += reader->bytesRead();
    readerAddresses.insert(reader->localAddress());
  }
  std::printf("slow readers: %zu closed for reading too slowly after %lld s (%zu bytes read in all); normal client: "
              "%d answers, slowest %lld ms\n",
              closedReaders.size(), static_cast<long long>(attack.count()), read, answered,
              static_cast<long long>(slowest.count()));

  EXPECT_TRUE(firstFailure.empty()) << firstFailure;
  EXPECT_GT(answered, 0);
  // Every slow reader was closed, each logged by its own address.
  EXPECT_EQ(closedReaders, readerAddresses);
  readers.clear();
  EXPECT_EQ(healthBody(server.endpoint()), health);
}

// A plain-HTTP socket from 127.0.0.2 to the service's plain listener, with a
// small receive buffer, so the server's writes stall early.
Poco::Net::StreamSocket smallWindowSocket(std::uint16_t port) {
  Poco::Net::StreamSocket socket(Poco::Net::SocketAddress::IPv4);
  socket.impl()->bind(Poco::Net::SocketAddress("127.0.0.2", 0));
  socket.setReceiveBufferSize(4 * 1024);
  socket.connect(Poco::Net::SocketAddress("127.0.0.1", port), Poco::Timespan(5, 0));
  return socket;
}

TEST(FailedWrite, AConnectionEndsAtItsFirstFailedWriteAndOnlyWhatWasAnsweredIsLogged) {
  server::testing::ServiceHarness harness([](server::ServerConfig& config) {
    config.plainListen = server::ListenAddress{"127.0.0.1", 0};
  });
  const std::uint16_t port = *harness.service().plainPort();
  Poco::Net::StreamSocket socket = smallWindowSocket(port);
  const std::string client = socket.address().toString();
  constexpr int kRequests = 300;
  std::string requests;
  for (int index = 0; index < kRequests; ++index) requests += kOpenApiRequest;
  socket.sendBytes(requests.data(), static_cast<int>(requests.size()));
  // The server fills what the kernel holds, then waits for the reader; the
  // reader resets the connection without reading a byte.
  std::this_thread::sleep_for(500ms);
  socket.setLinger(true, 0);
  socket.close();
  std::this_thread::sleep_for(500ms);
  harness.service().flushAccessLog();

  std::vector<std::string> lines;
  for (const std::string& line : harness.accessLogLines()) {
    if (line.find("\"client\":\"" + client + "\"") != std::string::npos) lines.push_back(line);
  }
  ASSERT_FALSE(lines.empty());
  EXPECT_LT(lines.size(), static_cast<std::size_t>(kRequests));
  // Every line but the last is an answer that went out whole; the last one,
  // cut by the reset, says so; nothing after it was served.
  for (std::size_t index = 0; index + 1 < lines.size(); ++index) {
    EXPECT_NE(lines[index].find("\"path\":\"/openapi.json\",\"status\":200,"), std::string::npos) << lines[index];
    EXPECT_EQ(lines[index].find("undelivered"), std::string::npos) << lines[index];
  }
  EXPECT_NE(lines.back().find("\"path\":\"/openapi.json\",\"status\":200,"), std::string::npos) << lines.back();
  EXPECT_TRUE(lines.back().ends_with(",\"undelivered\":true}")) << lines.back();
  // No line in the operational log about it: a client that went away is not
  // a fault of the server.
  for (const std::string& line : harness.serviceLog()) {
    EXPECT_EQ(line.find("request failed"), std::string::npos) << line;
    EXPECT_EQ(line.find(client), std::string::npos) << line;
  }
  // The server serves on.
  EXPECT_EQ(harness.request(server::testing::HttpCall{"GET", "/healthz", {}, ""}).status, 200);
}

}  // namespace
}  // namespace codepayload::robustness
