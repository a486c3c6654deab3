#include "server/connections/worker_pool.h"

#include <gtest/gtest.h>
#include <poll.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

namespace codepayload::server {
namespace {

using namespace std::chrono_literals;

// A job that runs `body` each time a worker runs it.
class FunctionJob final : public WorkerPool::Job {
 public:
  explicit FunctionJob(std::function<void()> body) : body_(std::move(body)) {}
  void run() noexcept override { body_(); }

 private:
  std::function<void()> body_;
};

// A gate the test opens: jobs wait at it.
class Gate {
 public:
  void pass() {
    std::unique_lock lock(mutex_);
    ++waiting_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return open_; });
  }
  void open() {
    const std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  bool awaitWaiting(int count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 3s, [&] { return waiting_ >= count; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int waiting_ = 0;
  bool open_ = false;
};

TEST(WorkerPool, StartsTheMinimumAndGrowsToTheMaximumWhileJobsWait) {
  WorkerPool pool(1, 3);
  EXPECT_EQ(pool.threads(), 1);
  Gate gate;
  std::vector<std::unique_ptr<FunctionJob>> jobs;
  for (int index = 0; index < 5; ++index) jobs.push_back(std::make_unique<FunctionJob>([&] { gate.pass(); }));
  for (auto& job : jobs) pool.submit(*job);
  ASSERT_TRUE(gate.awaitWaiting(3));
  EXPECT_EQ(pool.threads(), 3);
  EXPECT_EQ(pool.busy(), 3);
  EXPECT_EQ(pool.queued(), 2u);
  gate.open();
  pool.stop();  // runs what is queued, then joins
  EXPECT_EQ(pool.queued(), 0u);
}

TEST(WorkerPool, RunsEveryJobInOrderAndAJobMaySubmitItselfAgain) {
  std::mutex mutex;
  std::vector<int> order;
  std::atomic<int> again{3};
  WorkerPool pool(1, 1);
  std::unique_ptr<FunctionJob> repeating;
  repeating = std::make_unique<FunctionJob>([&] {
    {
      const std::lock_guard lock(mutex);
      order.push_back(0);
    }
    if (--again > 0) pool.submit(*repeating);
  });
  FunctionJob first([&] {
    const std::lock_guard lock(mutex);
    order.push_back(1);
  });
  FunctionJob second([&] {
    const std::lock_guard lock(mutex);
    order.push_back(2);
  });
  pool.submit(first);
  pool.submit(second);
  pool.submit(*repeating);
  for (int wait = 0; wait < 300 && again > 0; ++wait) std::this_thread::sleep_for(10ms);
  pool.stop();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 0, 0, 0}));
}

TEST(WorkerPool, JobsOneAtATimeAllRunOnTheWorkerThatWasIdleLast) {
  WorkerPool pool(4, 4);
  // All four threads busy at once, then all idle: each has reached the pool.
  Gate gate;
  std::vector<std::unique_ptr<FunctionJob>> blocking;
  for (int index = 0; index < 4; ++index) blocking.push_back(std::make_unique<FunctionJob>([&] { gate.pass(); }));
  for (auto& job : blocking) pool.submit(*job);
  ASSERT_TRUE(gate.awaitWaiting(4));
  gate.open();
  for (int wait = 0; wait < 300 && pool.busy() != 0; ++wait) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(pool.busy(), 0);

  std::mutex mutex;
  std::vector<std::thread::id> threads;
  FunctionJob job([&] {
    const std::lock_guard lock(mutex);
    threads.push_back(std::this_thread::get_id());
  });
  const auto ran = [&] {
    const std::lock_guard lock(mutex);
    return threads.size();
  };
  for (std::size_t round = 0; round < 20; ++round) {
    pool.submit(job);
    // Until the worker is idle again (then it is on the pool's idle stack).
    for (int wait = 0; wait < 300 && (pool.busy() != 0 || ran() <= round); ++wait) std::this_thread::sleep_for(1ms);
  }
  pool.stop();
  ASSERT_EQ(threads.size(), 20u);
  EXPECT_EQ(std::count(threads.begin(), threads.end(), threads.front()), 20);
  EXPECT_EQ(pool.threads(), 4);
}

// True when `fd` is readable now.
bool readableNow(int fd) {
  pollfd watched{fd, POLLIN, 0};
  return ::poll(&watched, 1, 0) == 1;
}

TEST(WorkerPool, TheLendingInterruptIsUpWhileAJobWaitsForAWorkerAndAfterLendingStops) {
  WorkerPool pool(1, 1);
  Gate gate;
  FunctionJob blocking([&] { gate.pass(); });
  FunctionJob waiting([] {});
  EXPECT_FALSE(readableNow(pool.lendingInterrupt()));
  EXPECT_FALSE(pool.workWaiting());
  pool.submit(blocking);
  ASSERT_TRUE(gate.awaitWaiting(1));
  EXPECT_EQ(pool.idleWorkers(), 0);
  EXPECT_FALSE(readableNow(pool.lendingInterrupt()));
  pool.submit(waiting);  // no worker for it: queued
  EXPECT_TRUE(readableNow(pool.lendingInterrupt()));
  EXPECT_TRUE(pool.workWaiting());
  gate.open();
  for (int wait = 0; wait < 300 && (pool.queued() != 0 || pool.busy() != 0); ++wait) std::this_thread::sleep_for(1ms);
  EXPECT_FALSE(readableNow(pool.lendingInterrupt()));
  EXPECT_FALSE(pool.workWaiting());
  EXPECT_EQ(pool.idleWorkers(), 1);
  pool.stopLending();
  EXPECT_TRUE(readableNow(pool.lendingInterrupt()));
  EXPECT_TRUE(pool.workWaiting());
}

TEST(WorkerPool, NothingMayBeSubmittedOnceStopped) {
  WorkerPool pool(1, 2);
  pool.stop();
  FunctionJob job([] {});
  EXPECT_THROW(pool.submit(job), std::logic_error);
}

}  // namespace
}  // namespace codepayload::server
