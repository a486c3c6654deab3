#include "server/worker_pool.h"

#include <algorithm>
#include <stdexcept>

namespace codepayload::server {

WorkerPool::WorkerPool(int minThreads, int maxThreads) : maxThreads_(std::max(1, maxThreads)) {
  const std::lock_guard lock(mutex_);
  for (int index = 0; index < std::clamp(minThreads, 1, maxThreads_); ++index) startThreadLocked(nullptr);
}

WorkerPool::~WorkerPool() { stop(); }

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
    workerFree_.store(!idle_.empty(), std::memory_order_relaxed);
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
        ++busy_;
      } else if (stopping_) {
        return;
      } else {
        idle_.push_back(&worker);
        workerFree_.store(true, std::memory_order_relaxed);
        worker.wake.wait(lock, [&] { return worker.job != nullptr || stopping_; });
        if (worker.job == nullptr) {
          // Stopping: taken off the idle stack, it runs what is still queued.
          std::erase(idle_, &worker);
          workerFree_.store(!idle_.empty(), std::memory_order_relaxed);
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
