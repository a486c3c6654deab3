// The threads that do the connections' work, fed from one queue in order. A
// job runs until its connection must wait for its peer (then it is parked in
// the waiting room, not here) or ends; so a worker is only ever busy with
// work the server does itself. The pool starts `minThreads` threads and adds
// one, up to `maxThreads`, whenever a job is queued while none is idle.
// A job goes to the worker that became idle last: the work stays on as few
// threads as the load needs, warm in their caches, and the memory each thread
// keeps for its next request (the engine's scratch) is kept by few threads.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace codepayload::server {

class WorkerPool {
 public:
  class Job {
   public:
    virtual ~Job() = default;
    // Runs on a worker; may submit itself again before it returns.
    virtual void run() noexcept = 0;
  };

  // Throws std::system_error when no thread can be started.
  WorkerPool(int minThreads, int maxThreads);
  // stop().
  ~WorkerPool();

  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues `job` (not queued already); a worker runs it soon.
  void submit(Job& job);
  // Runs every job queued, then joins the threads. Nothing may be submitted
  // once it returned.
  void stop();

  // Jobs waiting for a worker.
  std::size_t queued() const;
  // True when a job submitted now would find an idle worker, read without a
  // lock (a moment old).
  const std::atomic<bool>& workerFree() const { return workerFree_; }
  // Workers running a job.
  int busy() const;
  int threads() const;

 private:
  // One thread's place in the pool: the job handed to it while it waits.
  struct Worker {
    std::condition_variable wake;
    Job* job = nullptr;
  };

  void work(Worker& worker);
  // With mutex_ held.
  void startThreadLocked(Job* first);

  const int maxThreads_;
  mutable std::mutex mutex_;
  std::deque<Job*> queue_;           // jobs no idle worker could take
  std::atomic<bool> workerFree_{false};  // !idle_.empty(), for readers without the lock
  std::vector<Worker*> idle_;        // the last one became idle last
  std::deque<Worker> workers_;       // a deque: each keeps its address
  int busy_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace codepayload::server
