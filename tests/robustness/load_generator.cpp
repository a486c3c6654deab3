#include "tests/robustness/load_generator.h"

#include <Poco/Exception.h>
#include <Poco/String.h>

#include <algorithm>
#include <memory>

namespace codepayload::robustness {

namespace {

std::string describe(std::size_t requestIndex, const HttpResult& response) {
  constexpr std::size_t kShownBody = 300;
  std::string text = "request " + std::to_string(requestIndex) + ": status " + std::to_string(response.status);
  if (response.status == 0) return text + " (the connection ended without a response)";
  text += ", body " + response.body.substr(0, kShownBody);
  if (response.body.size() > kShownBody) text += "...";
  return text;
}

}  // namespace

double LoadReport::requestsPerSecond() const {
  return elapsed.count() == 0 ? 0.0
                              : static_cast<double>(served + failed) * 1000.0 / static_cast<double>(elapsed.count());
}

LoadGenerator::LoadGenerator(ServiceEndpoint endpoint, std::vector<std::string> requests, ResponseClassifier classify,
                             std::size_t kinds, int threads, std::uint64_t maxRequests)
    : endpoint_(std::move(endpoint)),
      requests_(std::move(requests)),
      classify_(std::move(classify)),
      kinds_(kinds),
      maxRequests_(maxRequests),
      started_(std::chrono::steady_clock::now()),
      servedByKind_(kinds, 0) {
  for (int thread = 0; thread < threads; ++thread) {
    threads_.emplace_back([this, thread] { client(static_cast<std::size_t>(thread)); });
  }
}

LoadGenerator::~LoadGenerator() { stop(); }

void LoadGenerator::fail(const std::string& what) {
  ++failed_;
  const std::lock_guard lock(reportMutex_);
  if (firstFailure_.empty()) firstFailure_ = what;
}

void LoadGenerator::client(std::size_t thread) {
  std::vector<std::uint64_t> counts(kinds_, 0);
  std::vector<int> sequence;
  std::unique_ptr<TlsConnection> connection;
  std::size_t next = thread % requests_.size();
  std::uint64_t attempts = 0;
  while (running_ && (maxRequests_ == 0 || attempts < maxRequests_)) {
    const std::size_t requestIndex = next;
    next = (next + 1) % requests_.size();
    ++attempts;
    try {
      if (!connection) {
        connection = std::make_unique<TlsConnection>(endpoint_);
        ++connections_;
      }
      const auto begin = std::chrono::steady_clock::now();
      const bool sent = connection->send(requests_[requestIndex]);
      const HttpResult response = sent ? connection->readResponse() : HttpResult{};
      const auto took =
          std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - begin).count();
      std::int64_t slowest = slowestMicros_.load();
      while (took > slowest && !slowestMicros_.compare_exchange_weak(slowest, took)) {
      }
      ++completed_;
      const int kind = response.status == 0 ? kUnexpected : classify_(requestIndex, response);
      if (kind == kUnexpected || static_cast<std::size_t>(kind) >= kinds_) {
        fail(describe(requestIndex, response));
        connection.reset();
        continue;
      }
      ++counts[static_cast<std::size_t>(kind)];
      if (sequence.empty() || sequence.back() != kind) sequence.push_back(kind);
      if (Poco::icompare(response.header("connection"), "close") == 0) connection.reset();
    } catch (const Poco::Exception& error) {
      ++completed_;
      fail("request " + std::to_string(requestIndex) + ": " + error.displayText());
      connection.reset();
    }
  }
  const std::lock_guard lock(reportMutex_);
  for (std::size_t kind = 0; kind < kinds_; ++kind) servedByKind_[kind] += counts[kind];
  kindSequences_.push_back(std::move(sequence));
}

bool LoadGenerator::waitForCompleted(std::uint64_t count, std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (completed_.load() < count) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

LoadReport LoadGenerator::stop() {
  if (stopped_) return report_;
  running_ = false;
  for (std::thread& thread : threads_) thread.join();
  stopped_ = true;
  report_.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_);
  report_.servedByKind = servedByKind_;
  for (const std::uint64_t count : servedByKind_) report_.served += count;
  report_.failed = failed_.load();
  report_.connections = connections_.load();
  report_.kindSequences = kindSequences_;
  report_.firstFailure = firstFailure_;
  report_.slowest = std::chrono::microseconds(slowestMicros_.load());
  return report_;
}

}  // namespace codepayload::robustness
