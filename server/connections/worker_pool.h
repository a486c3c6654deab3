// The threads that do the connections' work, fed from one queue in order. A
// job runs until its connection must wait for its peer (then it is parked in
// the waiting room, not here) or ends; so a worker is only ever busy with
// work the server does itself. The pool starts `minThreads` threads and adds
// one, up to `maxThreads`, whenever a job is queued while none is idle.
// A job goes to the worker that became idle last: the work stays on as few
// threads as the load needs, warm in their caches, and the memory each thread
// keeps for its next request (the engine's scratch) is kept by few threads.
//
// A running job may keep its worker to wait for its own socket (lending)
// while no job waits for a worker: it polls lendingInterrupt() beside its
// socket, which becomes readable as soon as a job is queued (or lending
// stops), and then gives the worker back.
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
  // Workers waiting for a job, and whether a job waits for a worker, read
  // without a lock (a moment old): whether a job may keep its worker.
  int idleWorkers() const { return idleCount_.load(std::memory_order_relaxed); }
  bool workWaiting() const { return interrupted_.load(std::memory_order_relaxed); }
  // Readable while a job waits for a worker, or after stopLending().
  int lendingInterrupt() const { return interrupt_; }
  // From now on no job keeps its worker to wait (the server stops).
  void stopLending();
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
  // With mutex_ held: the interrupt and the counts follow the queue and the
  // idle stack.
  void updateLendingLocked();

  const int maxThreads_;
  mutable std::mutex mutex_;
  std::deque<Job*> queue_;           // jobs no idle worker could take
  const int interrupt_;  // an eventfd, readable while interrupted_
  std::atomic<bool> interrupted_{false};
  std::atomic<int> idleCount_{0};  // idle_.size()
  bool lendingStopped_ = false;
  std::vector<Worker*> idle_;        // the last one became idle last
  std::deque<Worker> workers_;       // a deque: each keeps its address
  int busy_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace codepayload::server
