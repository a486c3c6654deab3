// The counting primitives of the service's metrics (D-O1): a counter and a
// fixed-bucket histogram that any thread may bump on the request path with
// relaxed atomic adds (no lock, no allocation, no string), and that a scrape
// reads. Every layer that counts keeps its own block of these (the engine's
// in engine/engine_metrics.h, the server's in server/observability/service_metrics.h); the
// Prometheus text is written in server/ only. Plain C++20, no dependencies.
//
// Values read while other threads count are each exact at some instant, but
// not all at the same instant (a histogram's sum may run one observation
// ahead of its buckets): what Prometheus expects of a scrape.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace codepayload::metrics {

// One cache line each, so that two counters bumped by different threads do
// not share one.
inline constexpr std::size_t kCacheLineBytes = 64;

// Counts up from zero; never goes down.
class alignas(kCacheLineBytes) Counter {
 public:
  void add(std::uint64_t amount = 1) noexcept { value_.fetch_add(amount, std::memory_order_relaxed); }
  std::uint64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> value_{0};
};

// The upper bounds of the latency histograms, in microseconds (D-O2): from
// 100 µs (a /healthz answer, a cached bearer check) to 10 s (a /codes batch
// of the largest size), roughly 1-2.5-5 per decade.
inline constexpr std::array<std::uint64_t, 16> kLatencyBoundsMicros{
    100,    250,     500,     1'000,   2'500,     5'000,     10'000,    25'000,
    50'000, 100'000, 250'000, 500'000, 1'000'000, 2'500'000, 5'000'000, 10'000'000};

// Durations in microseconds, counted into kLatencyBoundsMicros buckets (one
// more for what lies above the last bound). Each bucket counts only its own
// range; cumulative() gives Prometheus's "le" counts.
class alignas(kCacheLineBytes) LatencyHistogram {
 public:
  static constexpr std::size_t kBuckets = kLatencyBoundsMicros.size() + 1;

  void observe(std::uint64_t micros) noexcept {
    std::size_t bucket = 0;
    while (bucket < kLatencyBoundsMicros.size() && micros > kLatencyBoundsMicros[bucket]) ++bucket;
    counts_[bucket].fetch_add(1, std::memory_order_relaxed);
    sumMicros_.fetch_add(micros, std::memory_order_relaxed);
  }

  struct Reading {
    std::array<std::uint64_t, kBuckets> cumulative{};  // [i]: observations <= bound i; last: all
    std::uint64_t sumMicros = 0;
    std::uint64_t count() const { return cumulative.back(); }
  };
  Reading read() const noexcept {
    Reading reading;
    std::uint64_t running = 0;
    for (std::size_t bucket = 0; bucket < kBuckets; ++bucket) {
      running += counts_[bucket].load(std::memory_order_relaxed);
      reading.cumulative[bucket] = running;
    }
    reading.sumMicros = sumMicros_.load(std::memory_order_relaxed);
    return reading;
  }

 private:
  std::array<std::atomic<std::uint64_t>, kBuckets> counts_{};
  std::atomic<std::uint64_t> sumMicros_{0};
};

}  // namespace codepayload::metrics
