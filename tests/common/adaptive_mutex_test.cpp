#include "common/adaptive_mutex.h"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

namespace codepayload::common {
namespace {

TEST(AdaptiveMutex, OneHolderAtATime) {
  AdaptiveMutex mutex;
  std::unique_lock held(mutex);
  bool otherGotIt = true;
  std::thread([&] { otherGotIt = mutex.try_lock(); }).join();
  EXPECT_FALSE(otherGotIt);
  held.unlock();
  std::thread([&] {
    otherGotIt = mutex.try_lock();
    if (otherGotIt) mutex.unlock();
  }).join();
  EXPECT_TRUE(otherGotIt);
}

TEST(AdaptiveMutex, GuardedCountsFromManyThreadsAddUpExactly) {
  AdaptiveMutex mutex;
  long count = 0;  // not atomic: only the mutex keeps the adds whole
  constexpr int kThreads = 8;
  constexpr int kAdds = 100000;
  std::vector<std::thread> threads;
  for (int thread = 0; thread < kThreads; ++thread) {
    threads.emplace_back([&] {
      for (int add = 0; add < kAdds; ++add) {
        const std::lock_guard lock(mutex);
        ++count;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(count, long{kThreads} * kAdds);
}

}  // namespace
}  // namespace codepayload::common
