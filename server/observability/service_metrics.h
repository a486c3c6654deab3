// The server's own counters (D-O1), one block per running service: requests
// by route and status with their durations, token endpoint outcomes by cause,
// the /codes large-request throttles, and answers that never went out whole. Handlers count with relaxed atomic
// adds (no lock, no allocation, no string); the metrics listener reads them
// (server/observability/metrics_exposition.h). The engine's counters are its own
// (engine/engine_metrics.h).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <string_view>

#include "auth/token_endpoint.h"
#include "common/metrics.h"
#include "server/connections/large_request_slots.h"

namespace codepayload::server {

// One route's requests. Statuses are counted exactly (100..599), so no status
// the service answers is lumped with another.
class RouteMetrics {
 public:
  static constexpr int kLowestStatus = 100;
  static constexpr int kHighestStatus = 599;

  // `route`: the route's path ("/codes"), or "" for requests no route took.
  explicit RouteMetrics(std::string_view route) : route_(route) {}

  std::string_view route() const { return route_; }

  // One answered request: its status and how long its handler took.
  void record(int status, std::uint64_t durationMicros) noexcept {
    if (status >= kLowestStatus && status <= kHighestStatus) {
      byStatus_[static_cast<std::size_t>(status - kLowestStatus)].fetch_add(1, std::memory_order_relaxed);
    }
    duration_.observe(durationMicros);
  }

  std::uint64_t requests(int status) const noexcept {
    if (status < kLowestStatus || status > kHighestStatus) return 0;
    return byStatus_[static_cast<std::size_t>(status - kLowestStatus)].load(std::memory_order_relaxed);
  }
  metrics::LatencyHistogram::Reading duration() const noexcept { return duration_.read(); }

 private:
  std::string_view route_;
  std::array<std::atomic<std::uint64_t>, kHighestStatus - kLowestStatus + 1> byStatus_{};
  metrics::LatencyHistogram duration_;
};

class ServiceMetrics {
 public:
  // The block of `route` (the same one for the same path). Called while the
  // routes are built, before anything is served or scraped.
  RouteMetrics& route(std::string_view path);
  const std::deque<RouteMetrics>& routes() const { return routes_; }

  // One token endpoint answer, by TokenOutcome::cause.
  void countTokenOutcome(std::string_view cause) noexcept;
  std::uint64_t tokenOutcomes(std::size_t causeIndex) const noexcept { return tokenOutcomes_[causeIndex].value(); }

  // A /codes request refused (429, 503) because its client, its organization
  // or the server held every large-request slot.
  void countLargeRequestThrottle(LargeRequestSlots::Refusal refusal) noexcept {
    largeRequestThrottles_[static_cast<std::size_t>(refusal)].add();
  }
  std::uint64_t largeRequestThrottles(LargeRequestSlots::Refusal refusal) const noexcept {
    return largeRequestThrottles_[static_cast<std::size_t>(refusal)].value();
  }

  // An answer whose connection ended before all of it went out.
  void countUndeliveredAnswer() noexcept { undeliveredAnswers_.add(); }
  std::uint64_t undeliveredAnswers() const noexcept { return undeliveredAnswers_.value(); }

 private:
  std::deque<RouteMetrics> routes_;  // a deque: each block keeps its address
  std::array<metrics::Counter, auth::kTokenOutcomeCauses.size()> tokenOutcomes_;
  std::array<metrics::Counter, 3> largeRequestThrottles_;  // by LargeRequestSlots::Refusal
  metrics::Counter undeliveredAnswers_;
};

}  // namespace codepayload::server
