#include "server/worker_pool.h"

#include <algorithm>
#include <stdexcept>

namespace codepayload::server {

WorkerPool::WorkerPool(int minThreads, int maxThreads) : maxThreads_(std::max(1, maxThreads)) {
  const std::lock_guard lock(mutex_);
  for (int index = 0; index < std::clamp(minThreads, 1, maxThreads_); ++index) startThreadLocked();
}

WorkerPool::~WorkerPool() { stop(); }

void WorkerPool::startThreadLocked() {
  threads_.emplace_back([this] { work(); });
  ++idle_;
}

void WorkerPool::submit(Job& job) {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) throw std::logic_error("a job was submitted to a stopped worker pool");
    queue_.push_back(&job);
    // A new thread only when the idle ones already have a job each.
    if (static_cast<std::size_t>(idle_) < queue_.size() && static_cast<int>(threads_.size()) < maxThreads_) {
      startThreadLocked();
    }
  }
  wake_.notify_one();
}

void WorkerPool::stop() {
  std::vector<std::thread> threads;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    threads.swap(threads_);
  }
  wake_.notify_all();
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
  return idle_ + busy_;
}

void WorkerPool::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) {
      --idle_;
      return;  // stopping, and nothing left to run
    }
    Job* const job = queue_.front();
    queue_.pop_front();
    --idle_;
    ++busy_;
    lock.unlock();
    job->run();
    lock.lock();
    --busy_;
    ++idle_;
  }
}

}  // namespace codepayload::server
