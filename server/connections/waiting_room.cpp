#include "server/connections/waiting_room.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <system_error>
#include <utility>

namespace codepayload::server {

namespace {

int newEpoll() {
  const int fd = ::epoll_create1(EPOLL_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot create the waiting room's epoll set");
  return fd;
}

int newEventFd(int epoll) {
  const int fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) {
    ::close(epoll);
    throw std::system_error(errno, std::generic_category(), "cannot create the waiting room's eventfd");
  }
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.ptr = nullptr;  // no guest: the wake-up
  if (::epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) != 0) {
    const int error = errno;
    ::close(fd);
    ::close(epoll);
    throw std::system_error(error, std::generic_category(), "cannot watch the waiting room's eventfd");
  }
  return fd;
}

void signal(int eventFd) {
  const std::uint64_t one = 1;
  // A full counter already wakes the thread; nothing else can fail here.
  [[maybe_unused]] const auto written = ::write(eventFd, &one, sizeof one);
}

int millisecondsUntil(WaitingRoom::Clock::time_point deadline, WaitingRoom::Clock::time_point now) {
  if (deadline == WaitingRoom::Clock::time_point::max()) return -1;
  if (deadline <= now) return 0;
  const auto wait = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
  return static_cast<int>(std::min<std::chrono::milliseconds::rep>(wait, 60'000));
}

}  // namespace

WaitingRoom::WaitingRoom(std::function<void(Guest&, Wake)> handBack)
    : handBack_(std::move(handBack)), epoll_(newEpoll()), wakeup_(newEventFd(epoll_)), thread_([this] { run(); }) {}

WaitingRoom::~WaitingRoom() {
  {
    const std::lock_guard lock(mutex_);
    quitting_ = true;
  }
  signal(wakeup_);
  thread_.join();
  ::close(wakeup_);
  ::close(epoll_);
}

void WaitingRoom::park(Guest& guest, int fd, Interest interest, Clock::time_point deadline, bool idle) {
  std::unique_lock lock(mutex_);
  guest.fd_ = fd;
  guest.idle_ = idle;
  if (stopAll_ || (idle && stopIdle_)) {
    guest.parked_ = true;
    stoppedOnArrival_.push_back(&guest);
    lock.unlock();
    signal(wakeup_);
    return;
  }
  epoll_event event{};
  event.events = (interest == Interest::Readable ? EPOLLIN : EPOLLOUT) | EPOLLONESHOT;
  event.data.ptr = &guest;
  guest.parked_ = true;
  guest.deadlineEntry_ = deadlines_.emplace(deadline, &guest);
  parkedCount_.store(deadlines_.size(), std::memory_order_relaxed);
  // Armed last: its readiness may be reported at once, and finds it parked.
  if (::epoll_ctl(epoll_, guest.registered_ ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event) != 0) {
    const int error = errno;
    guest.parked_ = false;
    deadlines_.erase(guest.deadlineEntry_);
    parkedCount_.store(deadlines_.size(), std::memory_order_relaxed);
    throw std::system_error(error, std::generic_category(), "cannot watch a connection");
  }
  guest.registered_ = true;
  const bool sooner = deadline < waitingUntil_;
  lock.unlock();
  if (sooner) signal(wakeup_);
}

void WaitingRoom::wakeIdle() {
  {
    const std::lock_guard lock(mutex_);
    stopIdle_ = true;
  }
  signal(wakeup_);
}

void WaitingRoom::wakeAll() {
  {
    const std::lock_guard lock(mutex_);
    stopIdle_ = true;
    stopAll_ = true;
  }
  signal(wakeup_);
}

std::size_t WaitingRoom::parked() const {
  const std::lock_guard lock(mutex_);
  return deadlines_.size() + stoppedOnArrival_.size();
}

void WaitingRoom::unparkLocked(Guest& guest, bool unregister) {
  guest.parked_ = false;
  deadlines_.erase(guest.deadlineEntry_);
  parkedCount_.store(deadlines_.size(), std::memory_order_relaxed);
  if (unregister && guest.registered_) {
    ::epoll_ctl(epoll_, EPOLL_CTL_DEL, guest.fd_, nullptr);
    guest.registered_ = false;
  }
}

void WaitingRoom::run() {
  std::array<epoll_event, 256> events{};
  std::vector<std::pair<Guest*, Wake>> handedBack;
  while (true) {
    int timeout = -1;
    {
      const std::lock_guard lock(mutex_);
      if (quitting_) return;
      waitingUntil_ = deadlines_.empty() ? Clock::time_point::max() : deadlines_.begin()->first;
      timeout = millisecondsUntil(waitingUntil_, Clock::now());
    }
    const int count = ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), timeout);
    handedBack.clear();
    {
      const std::lock_guard lock(mutex_);
      for (int index = 0; index < count; ++index) {
        auto* const guest = static_cast<Guest*>(events[static_cast<std::size_t>(index)].data.ptr);
        if (guest == nullptr) {
          std::uint64_t drained = 0;
          [[maybe_unused]] const auto read = ::read(wakeup_, &drained, sizeof drained);
          continue;
        }
        // Disarmed by EPOLLONESHOT; it stays in the set for its next park.
        if (!guest->parked_) continue;
        unparkLocked(*guest, false);
        handedBack.emplace_back(guest, Wake::Ready);
      }
      const Clock::time_point now = Clock::now();
      while (!deadlines_.empty() && deadlines_.begin()->first <= now) {
        Guest& guest = *deadlines_.begin()->second;
        unparkLocked(guest, true);
        handedBack.emplace_back(&guest, Wake::Expired);
      }
      if (stopIdle_ || stopAll_) {
        for (auto entry = deadlines_.begin(); entry != deadlines_.end();) {
          Guest& guest = *entry->second;
          ++entry;  // unparking erases the current entry
          if (!stopAll_ && !guest.idle_) continue;
          unparkLocked(guest, true);
          handedBack.emplace_back(&guest, Wake::Stopping);
        }
      }
      for (Guest* guest : stoppedOnArrival_) {
        guest->parked_ = false;
        handedBack.emplace_back(guest, Wake::Stopping);
      }
      stoppedOnArrival_.clear();
    }
    for (const auto& [guest, wake] : handedBack) handBack_(*guest, wake);
  }
}

}  // namespace codepayload::server
