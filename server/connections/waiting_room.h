// Where connections wait for their peers without holding a thread: one epoll
// set and the deadlines of everything in it, watched by one thread. A worker
// that would otherwise wait (for a TLS handshake, a request, its body, a
// reader taking an answer, the peer's close) parks its connection here with
// what it waits for and until when, and goes on to other work; the waiting
// room hands the connection back (to a worker queue) once its socket is
// ready, its deadline has passed, or the server stops. So slow and idle
// peers, however many, cost memory and a descriptor each, never a worker.
//
// Each park is ended by exactly one hand-back, always on the waiting room's
// thread: an expired or stopped guest is taken out of the epoll set before it
// is handed back, so no later readiness report can name it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace codepayload::server {

class WaitingRoom {
 public:
  using Clock = std::chrono::steady_clock;

  enum class Interest { Readable, Writable };
  enum class Wake {
    Ready,     // the socket is ready (or failed: the next call on it says so)
    Expired,   // the deadline passed first
    Stopping,  // the server stops (see wakeIdle, wakeAll)
  };

  // What waits: a connection. While it is parked only the waiting room
  // touches these fields.
  class Guest {
   public:
    virtual ~Guest() = default;

   private:
    friend class WaitingRoom;
    int fd_ = -1;
    bool registered_ = false;  // in the epoll set (armed or not)
    bool parked_ = false;
    bool idle_ = false;
    std::multimap<Clock::time_point, Guest*>::iterator deadlineEntry_;
  };

  // `handBack` gets every guest handed back, on the waiting room's thread; it
  // must only queue it (for a worker) and return. Throws std::system_error
  // when the system has no epoll or eventfd left.
  explicit WaitingRoom(std::function<void(Guest&, Wake)> handBack);
  // Stops the thread. Guests still parked are not handed back: their owner
  // ends them.
  ~WaitingRoom();

  WaitingRoom(const WaitingRoom&) = delete;
  WaitingRoom& operator=(const WaitingRoom&) = delete;

  // Parks `guest` (not parked) until its socket `fd` is ready for `interest`
  // or `deadline` passes. `idle`: it waits between two requests, and a
  // stopping server ends that wait (wakeIdle). The same guest must always
  // come with the same descriptor. Throws std::system_error when epoll
  // refuses the descriptor (the guest is then not parked).
  void park(Guest& guest, int fd, Interest interest, Clock::time_point deadline, bool idle);

  // Hands back every idle guest now, and from then on every idle guest at
  // once when it is parked (Wake::Stopping).
  void wakeIdle();
  // The same for every guest.
  void wakeAll();

  std::size_t parked() const;
  // The same, read without a lock (a moment old).
  std::size_t parkedNow() const { return parkedCount_.load(std::memory_order_relaxed); }

 private:
  void run();
  // With mutex_ held: takes `guest` out of the epoll set and the deadlines.
  void unparkLocked(Guest& guest, bool unregister);

  const std::function<void(Guest&, Wake)> handBack_;
  const int epoll_;
  const int wakeup_;  // an eventfd: a stop, or a deadline earlier than the thread's wait

  mutable std::mutex mutex_;  // guards the guests' fields while parked, and below
  std::multimap<Clock::time_point, Guest*> deadlines_;  // every parked guest
  std::vector<Guest*> stoppedOnArrival_;  // parked after a stop that ends them
  std::atomic<std::size_t> parkedCount_{0};  // deadlines_.size()
  Clock::time_point waitingUntil_ = Clock::time_point::max();
  bool stopIdle_ = false;
  bool stopAll_ = false;
  bool quitting_ = false;
  std::thread thread_;
};

}  // namespace codepayload::server
