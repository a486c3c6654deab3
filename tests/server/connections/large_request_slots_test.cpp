#include "server/connections/large_request_slots.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace codepayload::server {
namespace {

using Refusal = LargeRequestSlots::Refusal;

// Only the client limit, as `perClient`; the organization's and the server's off.
LargeRequestLimits perClient(int limit) { return LargeRequestLimits{1024, limit, 0, 0}; }

TEST(LargeRequestSlots, LargeMeansOverTheThresholdOrChunked) {
  const LargeRequestSlots slots(LargeRequestLimits{1024 * 1024, 2, 3, 4});
  EXPECT_FALSE(slots.isLarge(0));
  EXPECT_FALSE(slots.isLarge(1024 * 1024));
  EXPECT_TRUE(slots.isLarge(1024 * 1024 + 1));
  EXPECT_TRUE(slots.isLarge(std::nullopt));
}

TEST(LargeRequestSlots, AClientGetsItsLimitAndNoMoreUntilOneEnds) {
  LargeRequestSlots slots(perClient(2));
  LargeRequestSlots::Slot first = slots.tryTake("svc_client_a", "org_1");
  LargeRequestSlots::Slot second = slots.tryTake("svc_client_a", "org_1");
  ASSERT_TRUE(first);
  ASSERT_TRUE(second);
  const LargeRequestSlots::Slot refused = slots.tryTake("svc_client_a", "org_1");
  EXPECT_FALSE(refused);
  EXPECT_EQ(refused.refusal(), Refusal::Client);
  EXPECT_EQ(slots.heldByClient("svc_client_a"), 2);
  // Another client is not affected.
  LargeRequestSlots::Slot other = slots.tryTake("svc_client_b", "org_1");
  EXPECT_TRUE(other);
  EXPECT_EQ(other.refusal(), std::nullopt);
  EXPECT_EQ(slots.clients(), 2u);

  first = LargeRequestSlots::Slot();  // the first request ends
  EXPECT_EQ(slots.heldByClient("svc_client_a"), 1);
  LargeRequestSlots::Slot third = slots.tryTake("svc_client_a", "org_1");
  EXPECT_TRUE(third);
  EXPECT_FALSE(slots.tryTake("svc_client_a", "org_1"));
}

TEST(LargeRequestSlots, AnOrganizationsClientsShareItsLimit) {
  // The many clients one organization may create hold at most its limit.
  LargeRequestSlots slots(LargeRequestLimits{1024, 2, 3, 0});
  std::vector<LargeRequestSlots::Slot> held;
  for (const char* client : {"svc_a", "svc_b", "svc_c"}) held.push_back(slots.tryTake(client, "org_1"));
  for (const LargeRequestSlots::Slot& slot : held) EXPECT_TRUE(slot);
  const LargeRequestSlots::Slot refused = slots.tryTake("svc_d", "org_1");
  EXPECT_FALSE(refused);
  EXPECT_EQ(refused.refusal(), Refusal::Organization);
  EXPECT_EQ(slots.heldByOrganization("org_1"), 3);
  EXPECT_EQ(slots.heldByClient("svc_d"), 0);
  // Another organization is not affected.
  EXPECT_TRUE(slots.tryTake("svc_e", "org_2"));
  held.pop_back();
  EXPECT_TRUE(slots.tryTake("svc_d", "org_1"));
}

TEST(LargeRequestSlots, TheServerBoundsEveryOrganizationTogether) {
  LargeRequestSlots slots(LargeRequestLimits{1024, 2, 3, 4});
  std::vector<LargeRequestSlots::Slot> held;
  for (const char* organization : {"org_1", "org_2", "org_3", "org_4"}) {
    held.push_back(slots.tryTake(std::string("svc_") + organization, organization));
    EXPECT_TRUE(held.back());
  }
  const LargeRequestSlots::Slot refused = slots.tryTake("svc_org_5", "org_5");
  EXPECT_FALSE(refused);
  EXPECT_EQ(refused.refusal(), Refusal::Server);
  EXPECT_EQ(slots.held(), 4);
  // A refusal takes nothing: the client and its organization hold none.
  EXPECT_EQ(slots.heldByClient("svc_org_5"), 0);
  EXPECT_EQ(slots.heldByOrganization("org_5"), 0);
  EXPECT_EQ(slots.limit(Refusal::Client), 2);
  EXPECT_EQ(slots.limit(Refusal::Organization), 3);
  EXPECT_EQ(slots.limit(Refusal::Server), 4);
}

TEST(LargeRequestSlots, TheNarrowestLimitReachedIsTheOneNamed) {
  // The client's own limit is checked first, then its organization's.
  LargeRequestSlots slots(LargeRequestLimits{1024, 1, 1, 1});
  const LargeRequestSlots::Slot held = slots.tryTake("svc_a", "org_1");
  ASSERT_TRUE(held);
  EXPECT_EQ(slots.tryTake("svc_a", "org_1").refusal(), Refusal::Client);
  EXPECT_EQ(slots.tryTake("svc_b", "org_1").refusal(), Refusal::Organization);
  EXPECT_EQ(slots.tryTake("svc_c", "org_2").refusal(), Refusal::Server);
}

TEST(LargeRequestSlots, ARefusalTakesNothingAndEndedSlotsAreForgotten) {
  LargeRequestSlots slots(perClient(1));
  {
    LargeRequestSlots::Slot held = slots.tryTake("svc_client_a", "org_1");
    ASSERT_TRUE(held);
    for (int attempt = 0; attempt < 5; ++attempt) EXPECT_FALSE(slots.tryTake("svc_client_a", "org_1"));
    EXPECT_EQ(slots.heldByClient("svc_client_a"), 1);
  }
  EXPECT_EQ(slots.heldByClient("svc_client_a"), 0);
  EXPECT_EQ(slots.heldByOrganization("org_1"), 0);
  EXPECT_EQ(slots.held(), 0);
  EXPECT_EQ(slots.clients(), 0u);
}

TEST(LargeRequestSlots, AMovedSlotIsGivenBackOnce) {
  LargeRequestSlots slots(perClient(2));
  LargeRequestSlots::Slot first = slots.tryTake("svc_client_a", "org_1");
  LargeRequestSlots::Slot moved(std::move(first));
  EXPECT_FALSE(first);  // NOLINT(bugprone-use-after-move): a moved-from slot is empty by contract
  EXPECT_TRUE(moved);
  EXPECT_EQ(slots.heldByClient("svc_client_a"), 1);
  LargeRequestSlots::Slot assigned = slots.tryTake("svc_client_a", "org_1");
  EXPECT_EQ(slots.heldByClient("svc_client_a"), 2);
  assigned = std::move(moved);  // gives back the slot `assigned` held, keeps the moved one
  EXPECT_EQ(slots.heldByClient("svc_client_a"), 1);
  EXPECT_EQ(slots.heldByOrganization("org_1"), 1);
  assigned = LargeRequestSlots::Slot();
  EXPECT_EQ(slots.heldByClient("svc_client_a"), 0);
  EXPECT_EQ(slots.held(), 0);
}

TEST(LargeRequestSlots, ZeroMeansNoLimitButCounts) {
  LargeRequestSlots slots(perClient(0));
  std::vector<LargeRequestSlots::Slot> held;
  for (int index = 0; index < 100; ++index) {
    held.push_back(slots.tryTake("svc_client_a", "org_1"));
    EXPECT_TRUE(held.back());
  }
  EXPECT_EQ(slots.heldByClient("svc_client_a"), 100);
  EXPECT_EQ(slots.held(), 100);
  held.clear();
  EXPECT_EQ(slots.clients(), 0u);
}

TEST(LargeRequestSlots, ConcurrentTakersNeverHoldMoreThanTheServerLimit) {
  LargeRequestSlots slots(LargeRequestLimits{1024, 0, 0, 2});
  std::atomic<int> inside{0};
  std::atomic<int> most{0};
  std::atomic<int> granted{0};
  std::vector<std::thread> threads;
  for (int thread = 0; thread < 8; ++thread) {
    threads.emplace_back([&, thread] {
      const std::string client = "svc_client_" + std::to_string(thread);
      for (int attempt = 0; attempt < 2000; ++attempt) {
        LargeRequestSlots::Slot slot = slots.tryTake(client, "org_" + std::to_string(thread % 3));
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
  EXPECT_EQ(slots.held(), 0);
  EXPECT_EQ(slots.clients(), 0u);
}

}  // namespace
}  // namespace codepayload::server
