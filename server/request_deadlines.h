// A deadline for every request to arrive whole. Poco's HTTPServer bounds each
// socket read (http.ioTimeout), not a request, so a client sending one byte a
// second would keep its worker forever. Each connection holds a Watch for as
// long as its worker serves it; the deadline runs from when the connection is
// ready for a request (opened, or the previous response sent: the keep-alive
// wait counts) until the request's head and body are in. closeOverdue(),
// called every so often by a watchdog (ConnectionGuard's), shuts the socket
// down in both directions once a deadline has passed: the worker's blocked
// read returns at once and the connection ends. Handling a request and sending
// its response are not under the deadline.
// A TLS connection first has a shorter deadline of its own for the handshake
// (the server's handshake is done before any request is read); the request
// deadline then runs from the end of the handshake.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace codepayload::server {

class RequestDeadlines {
 public:
  using Clock = std::chrono::steady_clock;

  // `handshakeTimeout` bounds a Watch's TLS handshake (see Watch).
  explicit RequestDeadlines(std::chrono::milliseconds timeout,
                            std::chrono::milliseconds handshakeTimeout = std::chrono::milliseconds(0))
      : timeout_(timeout), handshakeTimeout_(handshakeTimeout) {}

  RequestDeadlines(const RequestDeadlines&) = delete;
  RequestDeadlines& operator=(const RequestDeadlines&) = delete;

  // The connection on socket descriptor `fd` (from `peer`, for the log), served
  // by the calling thread while the Watch lives; its first deadline starts now.
  // The Watch keeps a duplicate of the descriptor, so the socket stays the same
  // one until the Watch is gone even if its owner closes `fd` earlier (the
  // number could be reused by another connection otherwise); the peer sees the
  // close once both are closed. Throws std::system_error when no descriptor
  // is left for the duplicate (the connection is then not served).
  // With `tlsHandshakeFirst`, the first deadline is the handshake's
  // (handshakeTimeout from now) until handshakeDone().
  class Watch {
   public:
    Watch(RequestDeadlines& deadlines, int fd, std::string peer, bool tlsHandshakeFirst = false);
    ~Watch();

    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;

    // The TLS handshake is over: the first request's deadline starts now.
    void handshakeDone() noexcept {
      deadline_.store(deadlines_.deadlineFrom(Clock::now()), std::memory_order_relaxed);
      handshaking_.store(false, std::memory_order_relaxed);
    }
    // The first bytes of a request arrived: the connection is busy until
    // the request is answered (a stopping server lets it finish).
    void requestStarted() noexcept { idle_.store(false, std::memory_order_relaxed); }
    // The request's head and body are in: no deadline while it is handled.
    void requestReceived() noexcept { deadline_.store(kNoDeadline, std::memory_order_relaxed); }
    // The response went out: the next request's deadline starts now.
    void requestAnswered() noexcept {
      deadline_.store(deadlines_.deadlineFrom(Clock::now()), std::memory_order_relaxed);
      idle_.store(true, std::memory_order_relaxed);
    }

   private:
    friend class RequestDeadlines;

    RequestDeadlines& deadlines_;
    const int fd_;  // the duplicate
    const std::string peer_;
    std::atomic<Clock::rep> deadline_;  // kNoDeadline while a request is handled
    std::atomic<bool> idle_{true};      // waiting for a request, none of it received
    std::atomic<bool> handshaking_;     // the deadline is the TLS handshake's
    bool closed_ = false;               // guarded by deadlines_.mutex_
  };

  // A connection closed by closeOverdue: its peer, and whether it was still
  // in its TLS handshake (else: no whole request in time).
  struct Overdue {
    std::string peer;
    bool inHandshake = false;
    bool operator==(const Overdue&) const = default;
  };

  // Shuts down every watched connection whose deadline is before `now` (each
  // once); returns them. Each is counted before its shutdown, so a peer that
  // sees its connection closed also sees it in closedCounts().
  std::vector<Overdue> closeOverdue(Clock::time_point now);
  struct ClosedCounts {
    std::uint64_t requestOverdue = 0;    // no whole request in time
    std::uint64_t handshakeOverdue = 0;  // no TLS handshake in time
  };
  ClosedCounts closedCounts() const;
  // Shuts down every watched connection that waits for a request (every
  // connection with `busyToo`): what a stopping server does.
  void closeIdle(bool busyToo);
  std::chrono::milliseconds timeout() const { return timeout_; }
  std::chrono::milliseconds handshakeTimeout() const { return handshakeTimeout_; }

 private:
  static constexpr Clock::rep kNoDeadline = Clock::duration::max().count();

  Clock::rep deadlineFrom(Clock::time_point start) const { return (start + timeout_).time_since_epoch().count(); }

  const std::chrono::milliseconds timeout_;
  const std::chrono::milliseconds handshakeTimeout_;
  mutable std::mutex mutex_;
  std::vector<Watch*> watches_;
  ClosedCounts closedCounts_;  // guarded by mutex_
};

// Watch::requestStarted, requestReceived and requestAnswered of the
// connection the calling thread serves; nothing on a thread that serves none.
void markRequestStarted() noexcept;
void markRequestReceived() noexcept;
void markRequestAnswered() noexcept;

}  // namespace codepayload::server
