// A bounded HTTPS load: `threads` clients, each on its own keep-alive
// connection from 127.0.0.1, send requests in turn from a fixed list until
// stopped (or until a request budget is spent), and judge every response with
// a classifier. A connection the server closes after a response marked
// "Connection: close" is reopened; any other close, reset, timeout or
// unexpected response counts as a failure.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/robustness/tls_connection.h"

namespace codepayload::robustness {

// What a response was: an index >= 0 the test chose (e.g. 0 = old rules,
// 1 = new rules), or kUnexpected.
inline constexpr int kUnexpected = -1;
using ResponseClassifier = std::function<int(std::size_t requestIndex, const HttpResult& response)>;

struct LoadReport {
  std::uint64_t served = 0;                 // classified responses
  std::uint64_t failed = 0;                 // unexpected responses and transport failures
  std::vector<std::uint64_t> servedByKind;  // per classifier index
  std::uint64_t connections = 0;            // connections opened
  // Per client thread, the kinds in the order they were first seen after a
  // different one (e.g. {0, 1} for a clean switch from old to new rules).
  std::vector<std::vector<int>> kindSequences;
  std::string firstFailure;  // what went wrong first, for the test message
  std::chrono::milliseconds elapsed{0};
  std::chrono::microseconds slowest{0};  // longest single request

  double requestsPerSecond() const;
};

class LoadGenerator {
 public:
  // `requests`: complete request bytes (see requestBytes()), sent in turn.
  // `kinds`: how many classifier indexes there are. `maxRequests` per thread
  // (0 = until stop()).
  LoadGenerator(ServiceEndpoint endpoint, std::vector<std::string> requests, ResponseClassifier classify,
                std::size_t kinds, int threads, std::uint64_t maxRequests = 0);
  ~LoadGenerator();  // stops

  LoadGenerator(const LoadGenerator&) = delete;
  LoadGenerator& operator=(const LoadGenerator&) = delete;

  // Requests answered so far (classified or not).
  std::uint64_t completed() const { return completed_.load(); }
  std::uint64_t failed() const { return failed_.load(); }

  // Waits until the generator has completed at least `count` requests, or
  // `timeout` passed; true when reached.
  bool waitForCompleted(std::uint64_t count, std::chrono::milliseconds timeout) const;

  // Stops the clients (each finishes its request in flight) and reports.
  LoadReport stop();

 private:
  void client(std::size_t thread);
  void fail(const std::string& what);

  ServiceEndpoint endpoint_;
  std::vector<std::string> requests_;
  ResponseClassifier classify_;
  std::size_t kinds_;
  std::uint64_t maxRequests_;
  std::chrono::steady_clock::time_point started_;

  std::atomic<bool> running_{true};
  std::atomic<std::uint64_t> completed_{0};
  std::atomic<std::uint64_t> failed_{0};
  std::atomic<std::uint64_t> connections_{0};
  std::atomic<std::int64_t> slowestMicros_{0};
  std::mutex reportMutex_;
  std::vector<std::uint64_t> servedByKind_;
  std::vector<std::vector<int>> kindSequences_;
  std::string firstFailure_;
  std::vector<std::thread> threads_;
  bool stopped_ = false;
  LoadReport report_;
};

}  // namespace codepayload::robustness
