#include "auth/usage_counter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

namespace codepayload::auth {
namespace {

// 2026-11-24 00:00:00 UTC.
constexpr std::int64_t kNov24 = 1'795'478'400;
constexpr std::int64_t kDay = 86400;

std::vector<ClientUsageDelta> sorted(std::vector<ClientUsageDelta> deltas) {
  std::sort(deltas.begin(), deltas.end(),
            [](const ClientUsageDelta& a, const ClientUsageDelta& b) { return a.clientId < b.clientId; });
  return deltas;
}

TEST(UsageDays, NumbersAndNamesUtcDaysAndMinutes) {
  EXPECT_EQ(utcDayNumber(0), 0);
  EXPECT_EQ(utcDayNumber(kDay - 1), 0);
  EXPECT_EQ(utcDayNumber(kDay), 1);
  EXPECT_EQ(utcDayNumber(-1), -1);
  EXPECT_EQ(utcDayText(0), "1970-01-01");
  EXPECT_EQ(utcDayText(-1), "1969-12-31");
  EXPECT_EQ(utcDayText(utcDayNumber(kNov24)), "2026-11-24");
  EXPECT_EQ(utcDayText(utcDayNumber(kNov24 - 1)), "2026-11-23");
  EXPECT_EQ(utcDayText(utcDayNumber(kNov24 + 36 * kDay)), "2026-12-30");
  EXPECT_EQ(utcDayText(utcDayNumber(1'709'164'800)), "2024-02-29");  // a leap day
  EXPECT_EQ(truncateToMinute(kNov24 + 119), kNov24 + 60);
  EXPECT_EQ(truncateToMinute(kNov24 + 60), kNov24 + 60);
  EXPECT_EQ(truncateToMinute(-1), -60);
}

TEST(UsageCounter, CountsPerClientAndDayAndKeepsTheLatestMinute) {
  UsageCounter counter;
  const std::int64_t today = utcDayNumber(kNov24);
  counter.tokenIssued("svc_client_a", "org_1", kNov24 + 10);
  counter.tokenIssued("svc_client_a", "org_1", kNov24 + 200);
  counter.codesAnswered("svc_client_a", "org_1", 5, 2, kNov24 + 130);
  counter.codesAnswered("svc_client_a", "org_1", 1, 0, kNov24 - 5);  // yesterday, 23:59:55
  counter.codesAnswered("svc_client_b", "org_2", 0, 3, kNov24 + kDay + 61);

  EXPECT_EQ(counter.pendingOfClient("svc_client_a"),
            (std::map<std::int64_t, UsageCounts>{{today - 1, {0, 1, 0}}, {today, {2, 5, 2}}}));
  EXPECT_EQ(counter.pendingLastUse("svc_client_a"), kNov24 + 180);
  EXPECT_EQ(counter.pendingLastUse("svc_client_c"), std::nullopt);
  EXPECT_TRUE(counter.pendingOfClient("svc_client_c").empty());

  EXPECT_EQ(sorted(counter.take()),
            (std::vector<ClientUsageDelta>{
                {"svc_client_a", "org_1", {{today - 1, {0, 1, 0}}, {today, {2, 5, 2}}}, kNov24 + 180},
                {"svc_client_b", "org_2", {{today + 1, {0, 0, 3}}}, kNov24 + kDay + 60},
            }));
  EXPECT_TRUE(counter.take().empty());
  EXPECT_TRUE(counter.pendingOfClient("svc_client_a").empty());
  EXPECT_EQ(counter.pendingLastUse("svc_client_a"), std::nullopt);
}

TEST(UsageCounter, SumsAnOrganizationsClients) {
  UsageCounter counter;
  const std::int64_t today = utcDayNumber(kNov24);
  counter.tokenIssued("svc_client_a", "org_1", kNov24);
  counter.codesAnswered("svc_client_b", "org_1", 4, 1, kNov24);
  counter.codesAnswered("svc_client_c", "org_2", 100, 100, kNov24);
  EXPECT_EQ(counter.pendingOfOrganization("org_1"), (std::map<std::int64_t, UsageCounts>{{today, {1, 4, 1}}}));
  EXPECT_EQ(counter.pendingOfOrganization("org_2"), (std::map<std::int64_t, UsageCounts>{{today, {0, 100, 100}}}));
  EXPECT_TRUE(counter.pendingOfOrganization("org_3").empty());
}

TEST(UsageCounter, DeltasPutBackAreAddedToWhatWasCountedSince) {
  UsageCounter counter;
  const std::int64_t today = utcDayNumber(kNov24);
  counter.codesAnswered("svc_client_a", "org_1", 3, 1, kNov24 + 600);
  counter.tokenIssued("svc_client_b", "org_1", kNov24);
  std::vector<ClientUsageDelta> taken = counter.take();
  counter.codesAnswered("svc_client_a", "org_1", 2, 0, kNov24 + 60);  // an earlier minute: last use stays
  counter.putBack(std::move(taken));
  EXPECT_EQ(sorted(counter.take()), (std::vector<ClientUsageDelta>{
                                        {"svc_client_a", "org_1", {{today, {0, 5, 1}}}, kNov24 + 600},
                                        {"svc_client_b", "org_1", {{today, {1, 0, 0}}}, kNov24},
                                    }));
}

TEST(UsageCounter, CountsFromManyThreadsAddUpExactly) {
  UsageCounter counter;
  constexpr int kThreads = 4;
  constexpr int kRounds = 5000;
  std::vector<std::thread> threads;
  for (int thread = 0; thread < kThreads; ++thread) {
    threads.emplace_back([&counter, thread] {
      for (int round = 0; round < kRounds; ++round) {
        const std::string client = "svc_client_" + std::to_string(round % 7);
        counter.tokenIssued(client, "org_1", kNov24 + thread);
        counter.codesAnswered(client, "org_1", 2, 1, kNov24 + round);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  UsageCounts total;
  for (const ClientUsageDelta& delta : counter.take()) {
    for (const auto& [day, counts] : delta.days) total += counts;
  }
  EXPECT_EQ(total, (UsageCounts{kThreads * kRounds, 2 * kThreads * kRounds, kThreads * kRounds}));
}

TEST(UsageCounter, OneClientCountedOnManyThreadsIsOneDeltaAndOneSum) {
  UsageCounter counter;
  const std::int64_t today = utcDayNumber(kNov24);
  constexpr int kThreads = 20;  // more threads than stripes: some share one
  std::vector<std::thread> threads;
  for (int thread = 0; thread < kThreads; ++thread) {
    threads.emplace_back([&counter, thread] {
      counter.tokenIssued("svc_client_a", "org_1", kNov24 + 60 * thread);
      counter.codesAnswered("svc_client_a", "org_1", 3, 1, kNov24);
    });
  }
  for (std::thread& thread : threads) thread.join();
  const std::map<std::int64_t, UsageCounts> expected{{today, {kThreads, 3 * kThreads, kThreads}}};
  EXPECT_EQ(counter.pendingOfClient("svc_client_a"), expected);
  EXPECT_EQ(counter.pendingOfOrganization("org_1"), expected);
  EXPECT_EQ(counter.pendingLastUse("svc_client_a"), kNov24 + 60 * (kThreads - 1));
  EXPECT_EQ(counter.take(), (std::vector<ClientUsageDelta>{
                                {"svc_client_a", "org_1", expected, kNov24 + 60 * (kThreads - 1)},
                            }));
}

}  // namespace
}  // namespace codepayload::auth
