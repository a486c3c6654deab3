#include "server/request_deadlines.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <utility>

namespace codepayload::server {

namespace {

thread_local RequestDeadlines::Watch* servedConnection = nullptr;

int duplicate(int fd) {
  const int copy = ::dup(fd);
  if (copy < 0) throw std::system_error(errno, std::generic_category(), "cannot watch a connection's deadline");
  return copy;
}

}  // namespace

RequestDeadlines::Watch::Watch(RequestDeadlines& deadlines, int fd, std::string peer, bool tlsHandshakeFirst)
    : deadlines_(deadlines),
      fd_(duplicate(fd)),
      peer_(std::move(peer)),
      deadline_(tlsHandshakeFirst ? (Clock::now() + deadlines.handshakeTimeout_).time_since_epoch().count()
                                  : deadlines.deadlineFrom(Clock::now())),
      handshaking_(tlsHandshakeFirst) {
  {
    const std::lock_guard lock(deadlines_.mutex_);
    deadlines_.watches_.push_back(this);
  }
  servedConnection = this;
}

RequestDeadlines::Watch::~Watch() {
  servedConnection = nullptr;
  {
    const std::lock_guard lock(deadlines_.mutex_);
    std::erase(deadlines_.watches_, this);
  }
  ::close(fd_);
}

std::vector<RequestDeadlines::Overdue> RequestDeadlines::closeOverdue(Clock::time_point now) {
  std::vector<Overdue> closed;
  const std::lock_guard lock(mutex_);
  for (Watch* watch : watches_) {
    if (watch->closed_ || watch->deadline_.load(std::memory_order_relaxed) >= now.time_since_epoch().count()) {
      continue;
    }
    watch->closed_ = true;
    const bool inHandshake = watch->handshaking_.load(std::memory_order_relaxed);
    ++(inHandshake ? closedCounts_.handshakeOverdue : closedCounts_.requestOverdue);
    // The Watch's own descriptor: always this connection's socket. A shutdown
    // is safe beside the worker's TLS calls, which then fail.
    ::shutdown(watch->fd_, SHUT_RDWR);
    closed.push_back(Overdue{watch->peer_, inHandshake});
  }
  return closed;
}

RequestDeadlines::ClosedCounts RequestDeadlines::closedCounts() const {
  const std::lock_guard lock(mutex_);
  return closedCounts_;
}

void RequestDeadlines::closeIdle(bool busyToo) {
  const std::lock_guard lock(mutex_);
  for (Watch* watch : watches_) {
    if (watch->closed_ || (!busyToo && !watch->idle_.load(std::memory_order_relaxed))) continue;
    watch->closed_ = true;
    ::shutdown(watch->fd_, SHUT_RDWR);
  }
}

void markRequestStarted() noexcept {
  if (servedConnection != nullptr) servedConnection->requestStarted();
}

void markRequestReceived() noexcept {
  if (servedConnection != nullptr) servedConnection->requestReceived();
}

void markRequestAnswered() noexcept {
  if (servedConnection != nullptr) servedConnection->requestAnswered();
}

}  // namespace codepayload::server
