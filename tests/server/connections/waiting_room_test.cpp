// The waiting room on real sockets (socketpair): each park ends in exactly
// one hand-back, for readiness, a deadline or a stop.
#include "server/connections/waiting_room.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace codepayload::server {
namespace {

using Clock = WaitingRoom::Clock;
using Wake = WaitingRoom::Wake;
using Interest = WaitingRoom::Interest;
using namespace std::chrono_literals;

class SocketPair {
 public:
  SocketPair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds_), 0); }
  ~SocketPair() {
    ::close(fds_[0]);
    ::close(fds_[1]);
  }
  int watched() const { return fds_[0]; }
  void send(char byte = 'x') { ASSERT_EQ(::write(fds_[1], &byte, 1), 1); }
  // Fills the watched end's send buffer, so it is no longer writable.
  void fillWatched() {
    const std::vector<char> block(64 * 1024, 'x');
    while (::write(fds_[0], block.data(), block.size()) > 0) {
    }
  }

 private:
  int fds_[2] = {-1, -1};
};

struct Guest : WaitingRoom::Guest {};

// Records every hand-back; waits for them.
class HandBacks {
 public:
  void operator()(WaitingRoom::Guest& guest, Wake wake) {
    const std::lock_guard lock(mutex_);
    events_.push_back({&guest, wake, Clock::now()});
    changed_.notify_all();
  }
  struct Event {
    WaitingRoom::Guest* guest;
    Wake wake;
    Clock::time_point at;
  };
  // The events once there are `count` of them (or what came within `timeout`).
  std::vector<Event> awaitCount(std::size_t count, std::chrono::milliseconds timeout = 3000ms) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return events_.size() >= count; });
    return events_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Event> events_;
};

TEST(WaitingRoom, AReadableSocketIsHandedBackReadyAndNotBefore) {
  HandBacks handBacks;
  WaitingRoom room([&](WaitingRoom::Guest& guest, Wake wake) { handBacks(guest, wake); });
  SocketPair sockets;
  Guest guest;
  room.park(guest, sockets.watched(), Interest::Readable, Clock::now() + 10s, false);
  EXPECT_EQ(room.parked(), 1u);
  EXPECT_EQ(room.parkedNow(), 1u);
  EXPECT_TRUE(handBacks.awaitCount(1, 200ms).empty());
  sockets.send();
  const auto events = handBacks.awaitCount(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].guest, &guest);
  EXPECT_EQ(events[0].wake, Wake::Ready);
  EXPECT_EQ(room.parked(), 0u);
  EXPECT_EQ(room.parkedNow(), 0u);
}

TEST(WaitingRoom, APassedDeadlineHandsBackOnceAndNoLaterReadinessDoes) {
  HandBacks handBacks;
  WaitingRoom room([&](WaitingRoom::Guest& guest, Wake wake) { handBacks(guest, wake); });
  SocketPair sockets;
  Guest guest;
  const auto parkedAt = Clock::now();
  room.park(guest, sockets.watched(), Interest::Readable, parkedAt + 300ms, false);
  const auto events = handBacks.awaitCount(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].wake, Wake::Expired);
  EXPECT_GE(events[0].at - parkedAt, 300ms);
  EXPECT_LT(events[0].at - parkedAt, 1000ms);
  // Taken out of the epoll set: its readiness now names nobody.
  sockets.send();
  EXPECT_EQ(handBacks.awaitCount(2, 300ms).size(), 1u);
  // Parked again (registered anew), it is handed back for readiness.
  room.park(guest, sockets.watched(), Interest::Readable, Clock::now() + 10s, false);
  const auto again = handBacks.awaitCount(2);
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[1].wake, Wake::Ready);
}

TEST(WaitingRoom, AGuestParksAgainAfterReadinessAndAnEarlierDeadlineWakesTheRoom) {
  HandBacks handBacks;
  WaitingRoom room([&](WaitingRoom::Guest& guest, Wake wake) { handBacks(guest, wake); });
  SocketPair slow;
  Guest waitsLong;
  room.park(waitsLong, slow.watched(), Interest::Readable, Clock::now() + 60s, false);
  SocketPair quick;
  Guest waitsShort;
  const auto parkedAt = Clock::now();
  // The room sleeps towards the 60 s deadline: a sooner one must wake it.
  room.park(waitsShort, quick.watched(), Interest::Readable, parkedAt + 200ms, false);
  const auto events = handBacks.awaitCount(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].guest, &waitsShort);
  EXPECT_EQ(events[0].wake, Wake::Expired);
  EXPECT_LT(events[0].at - parkedAt, 700ms);
  slow.send();
  const auto both = handBacks.awaitCount(2);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[1].guest, &waitsLong);
  EXPECT_EQ(both[1].wake, Wake::Ready);
}

TEST(WaitingRoom, WritableMeansRoomInTheSendBuffer) {
  HandBacks handBacks;
  WaitingRoom room([&](WaitingRoom::Guest& guest, Wake wake) { handBacks(guest, wake); });
  SocketPair sockets;
  Guest guest;
  room.park(guest, sockets.watched(), Interest::Writable, Clock::now() + 10s, false);
  auto events = handBacks.awaitCount(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].wake, Wake::Ready);
  sockets.fillWatched();
  room.park(guest, sockets.watched(), Interest::Writable, Clock::now() + 400ms, false);
  events = handBacks.awaitCount(2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].wake, Wake::Expired);
}

TEST(WaitingRoom, WakeIdleEndsOnlyIdleWaitsAndEveryLaterOne) {
  HandBacks handBacks;
  WaitingRoom room([&](WaitingRoom::Guest& guest, Wake wake) { handBacks(guest, wake); });
  SocketPair idleSockets;
  SocketPair busySockets;
  Guest idle;
  Guest busy;
  room.park(idle, idleSockets.watched(), Interest::Readable, Clock::now() + 10s, true);
  room.park(busy, busySockets.watched(), Interest::Readable, Clock::now() + 10s, false);
  room.wakeIdle();
  auto events = handBacks.awaitCount(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].guest, &idle);
  EXPECT_EQ(events[0].wake, Wake::Stopping);
  EXPECT_EQ(handBacks.awaitCount(2, 200ms).size(), 1u);  // the busy one still waits
  // An idle wait that starts after the stop ends at once.
  room.park(idle, idleSockets.watched(), Interest::Readable, Clock::now() + 10s, true);
  events = handBacks.awaitCount(2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].guest, &idle);
  EXPECT_EQ(events[1].wake, Wake::Stopping);
  room.wakeAll();
  events = handBacks.awaitCount(3);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[2].guest, &busy);
  EXPECT_EQ(events[2].wake, Wake::Stopping);
  EXPECT_EQ(room.parked(), 0u);
}

TEST(WaitingRoom, AGuestParkedAgainAfterEachReadinessIsHandedBackEachTime) {
  HandBacks handBacks;
  WaitingRoom room([&](WaitingRoom::Guest& guest, Wake wake) { handBacks(guest, wake); });
  SocketPair sockets;
  Guest guest;
  for (std::size_t round = 1; round <= 4; ++round) {
    room.park(guest, sockets.watched(), Interest::Readable, Clock::now() + 10s, false);
    std::this_thread::sleep_for(50ms);
    sockets.send();
    const auto events = handBacks.awaitCount(round);
    ASSERT_EQ(events.size(), round);
    EXPECT_EQ(events.back().wake, Wake::Ready);
    char byte = 0;
    ASSERT_EQ(::read(sockets.watched(), &byte, 1), 1);
  }
}

}  // namespace
}  // namespace codepayload::server
