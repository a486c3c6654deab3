#include "server/connections/worker_pool.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <stdexcept>
#include <system_error>

namespace codepayload::server {

namespace {

int newEventFd() {
  const int fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot create the worker pool's eventfd");
  return fd;
}

}  // namespace

WorkerPool::WorkerPool(int minThreads, int maxThreads)
    : maxThreads_(std::max(1, maxThreads)), interrupt_(newEventFd()) {
  const std::lock_guard lock(mutex_);
  for (int index = 0; index < std::clamp(minThreads, 1, maxThreads_); ++index) startThreadLocked(nullptr);
}

WorkerPool::~WorkerPool() {
  stop();
  ::close(interrupt_);
}

void WorkerPool::updateLendingLocked() {
  idleCount_.store(static_cast<int>(idle_.size()), std::memory_order_relaxed);
  const bool interrupt = lendingStopped_ || !queue_.empty();
  if (interrupt == interrupted_.load(std::memory_order_relaxed)) return;
  if (interrupt) {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(interrupt_, &one, sizeof one);
  } else {
    std::uint64_t drained = 0;
    [[maybe_unused]] const auto read = ::read(interrupt_, &drained, sizeof drained);
  }
  interrupted_.store(interrupt, std::memory_order_relaxed);
}

void WorkerPool::stopLending() {
  const std::lock_guard lock(mutex_);
  lendingStopped_ = true;
  updateLendingLocked();
}

void WorkerPool::startThreadLocked(Job* first) {
  Worker& worker = workers_.emplace_back();
  worker.job = first;
  if (first != nullptr) ++busy_;
  threads_.emplace_back([this, &worker] { work(worker); });
}

void WorkerPool::submit(Job& job) {
  const std::lock_guard lock(mutex_);
  if (stopping_) throw std::logic_error("a job was submitted to a stopped worker pool");
  if (!idle_.empty()) {
    Worker& worker = *idle_.back();
    idle_.pop_back();
    updateLendingLocked();
    worker.job = &job;
    ++busy_;
    worker.wake.notify_one();
    return;
  }
  if (static_cast<int>(workers_.size()) < maxThreads_) {
    startThreadLocked(&job);
    return;
  }
  queue_.push_back(&job);
  updateLendingLocked();
}

void WorkerPool::stop() {
  std::vector<std::thread> threads;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    threads.swap(threads_);
    for (Worker* worker : idle_) worker->wake.notify_one();
  }
  for (std::thread& thread : threads) thread.join();
}

std::size_t WorkerPool::queued() const {
  const std::lock_guard lock(mutex_);
  return queue_.size();
}

int WorkerPool::busy() const {
  const std::lock_guard lock(mutex_);
  return busy_;
}

int WorkerPool::threads() const {
  const std::lock_guard lock(mutex_);
  return static_cast<int>(workers_.size());
}

void WorkerPool::work(Worker& worker) {
  std::unique_lock lock(mutex_);
  while (true) {
    if (worker.job == nullptr) {
      if (!queue_.empty()) {
        worker.job = queue_.front();
        queue_.pop_front();
        updateLendingLocked();
        ++busy_;
      } else if (stopping_) {
        return;
      } else {
        idle_.push_back(&worker);
        updateLendingLocked();
        worker.wake.wait(lock, [&] { return worker.job != nullptr || stopping_; });
        if (worker.job == nullptr) {
          // Stopping: taken off the idle stack, it runs what is still queued.
          std::erase(idle_, &worker);
          updateLendingLocked();
          continue;
        }
      }
    }
    Job* const job = worker.job;
    lock.unlock();
    job->run();
    lock.lock();
    worker.job = nullptr;
    --busy_;
  }
}

}  // namespace codepayload::server
