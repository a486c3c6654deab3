#include "server/large_request_slots.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace codepayload::server {
namespace {

TEST(LargeRequestSlots, LargeMeansOverTheThresholdOrChunked) {
  const LargeRequestSlots slots(1024 * 1024, 2);
  EXPECT_FALSE(slots.isLarge(0));
  EXPECT_FALSE(slots.isLarge(1024 * 1024));
  EXPECT_TRUE(slots.isLarge(1024 * 1024 + 1));
  EXPECT_TRUE(slots.isLarge(std::nullopt));
}

TEST(LargeRequestSlots, AClientGetsItsLimitAndNoMoreUntilOneEnds) {
  LargeRequestSlots slots(1024, 2);
  LargeRequestSlots::Slot first = slots.tryTake("svc_client_a");
  LargeRequestSlots::Slot second = slots.tryTake("svc_client_a");
  ASSERT_TRUE(first);
  ASSERT_TRUE(second);
  EXPECT_FALSE(slots.tryTake("svc_client_a"));
  EXPECT_EQ(slots.held("svc_client_a"), 2);
  // Another client is not affected.
  LargeRequestSlots::Slot other = slots.tryTake("svc_client_b");
  EXPECT_TRUE(other);
  EXPECT_EQ(slots.clients(), 2u);

  first = LargeRequestSlots::Slot();  // the first request ends
  EXPECT_EQ(slots.held("svc_client_a"), 1);
  LargeRequestSlots::Slot third = slots.tryTake("svc_client_a");
  EXPECT_TRUE(third);
  EXPECT_FALSE(slots.tryTake("svc_client_a"));
}

TEST(LargeRequestSlots, ARefusalTakesNothingAndEndedSlotsAreForgotten) {
  LargeRequestSlots slots(1024, 1);
  {
    LargeRequestSlots::Slot held = slots.tryTake("svc_client_a");
    ASSERT_TRUE(held);
    for (int attempt = 0; attempt < 5; ++attempt) EXPECT_FALSE(slots.tryTake("svc_client_a"));
    EXPECT_EQ(slots.held("svc_client_a"), 1);
  }
  EXPECT_EQ(slots.held("svc_client_a"), 0);
  EXPECT_EQ(slots.clients(), 0u);
}

TEST(LargeRequestSlots, AMovedSlotIsGivenBackOnce) {
  LargeRequestSlots slots(1024, 2);
  LargeRequestSlots::Slot first = slots.tryTake("svc_client_a");
  LargeRequestSlots::Slot moved(std::move(first));
  EXPECT_FALSE(first);  // NOLINT(bugprone-use-after-move): a moved-from slot is empty by contract
  EXPECT_TRUE(moved);
  EXPECT_EQ(slots.held("svc_client_a"), 1);
  LargeRequestSlots::Slot assigned = slots.tryTake("svc_client_a");
  EXPECT_EQ(slots.held("svc_client_a"), 2);
  assigned = std::move(moved);  // gives back the slot `assigned` held, keeps the moved one
  EXPECT_EQ(slots.held("svc_client_a"), 1);
  assigned = LargeRequestSlots::Slot();
  EXPECT_EQ(slots.held("svc_client_a"), 0);
}

TEST(LargeRequestSlots, ZeroMeansNoLimitButCounts) {
  LargeRequestSlots slots(1024, 0);
  std::vector<LargeRequestSlots::Slot> held;
  for (int index = 0; index < 100; ++index) {
    held.push_back(slots.tryTake("svc_client_a"));
    EXPECT_TRUE(held.back());
  }
  EXPECT_EQ(slots.held("svc_client_a"), 100);
  held.clear();
  EXPECT_EQ(slots.clients(), 0u);
}

TEST(LargeRequestSlots, ConcurrentTakersNeverHoldMoreThanTheLimit) {
  LargeRequestSlots slots(1024, 2);
  std::atomic<int> inside{0};
  std::atomic<int> most{0};
  std::atomic<int> granted{0};
  std::vector<std::thread> threads;
  for (int thread = 0; thread < 8; ++thread) {
    threads.emplace_back([&] {
      for (int attempt = 0; attempt < 2000; ++attempt) {
        LargeRequestSlots::Slot slot = slots.tryTake("svc_client_a");
        if (!slot) continue;
        ++granted;
        const int now = ++inside;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        --inside;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_LE(most.load(), 2);
  EXPECT_GT(granted.load(), 0);
  EXPECT_EQ(slots.clients(), 0u);
}

}  // namespace
}  // namespace codepayload::server
