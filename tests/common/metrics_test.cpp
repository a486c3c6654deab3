// The counting primitives (common/metrics.h): exact counts from many threads,
// and histogram buckets whose edges belong to the bucket below (Prometheus's
// "le": less than or equal).
#include "common/metrics.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace codepayload::metrics {
namespace {

TEST(Counter, StartsAtZeroAndAddsExactly) {
  Counter counter;
  EXPECT_EQ(counter.value(), 0u);
  counter.add();
  counter.add(41);
  EXPECT_EQ(counter.value(), 42u);
}

TEST(Counter, ManyThreadsLoseNoCount) {
  Counter counter;
  LatencyHistogram histogram;
  std::vector<std::thread> threads;
  for (int thread = 0; thread < 4; ++thread) {
    threads.emplace_back([&] {
      for (int i = 0; i < 100000; ++i) {
        counter.add();
        histogram.observe(300);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(counter.value(), 400000u);
  const LatencyHistogram::Reading reading = histogram.read();
  EXPECT_EQ(reading.count(), 400000u);
  EXPECT_EQ(reading.sumMicros, 400000u * 300u);
  EXPECT_EQ(reading.cumulative[1], 0u);       // <= 250 µs
  EXPECT_EQ(reading.cumulative[2], 400000u);  // <= 500 µs
}

TEST(LatencyHistogram, ABoundBelongsToTheBucketItEnds) {
  LatencyHistogram histogram;
  histogram.observe(0);
  histogram.observe(100);         // <= 100 µs
  histogram.observe(101);         // <= 250 µs
  histogram.observe(10'000'000);  // <= 10 s
  histogram.observe(10'000'001);  // above every bound: only in +Inf
  const LatencyHistogram::Reading reading = histogram.read();
  ASSERT_EQ(reading.cumulative.size(), kLatencyBoundsMicros.size() + 1);
  EXPECT_EQ(reading.cumulative[0], 2u);
  EXPECT_EQ(reading.cumulative[1], 3u);
  EXPECT_EQ(reading.cumulative[kLatencyBoundsMicros.size() - 2], 3u);  // <= 5 s
  EXPECT_EQ(reading.cumulative[kLatencyBoundsMicros.size() - 1], 4u);  // <= 10 s
  EXPECT_EQ(reading.count(), 5u);
  EXPECT_EQ(reading.sumMicros, 100u + 101u + 10'000'000u + 10'000'001u);
}

TEST(LatencyHistogram, TheBoundsRise) {
  for (std::size_t index = 1; index < kLatencyBoundsMicros.size(); ++index) {
    EXPECT_LT(kLatencyBoundsMicros[index - 1], kLatencyBoundsMicros[index]);
  }
  EXPECT_EQ(kLatencyBoundsMicros.front(), 100u);
  EXPECT_EQ(kLatencyBoundsMicros.back(), 10'000'000u);
}

}  // namespace
}  // namespace codepayload::metrics
