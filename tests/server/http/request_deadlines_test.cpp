#include "server/request_deadlines.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <latch>
#include <stdexcept>
#include <thread>

namespace codepayload::server {
namespace {

using namespace std::chrono_literals;
using Clock = RequestDeadlines::Clock;

constexpr std::chrono::milliseconds kTimeout{5000};

// A connected pair of sockets: the server side is watched, the peer side
// sees what the deadline does to it.
class SocketPair {
 public:
  SocketPair() {
    std::array<int, 2> ends{};
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, ends.data()) != 0) throw std::runtime_error("socketpair failed");
    server_ = ends[0];
    peer_ = ends[1];
  }
  ~SocketPair() {
    ::close(server_);
    ::close(peer_);
  }
  int server() const { return server_; }
  // True when the peer reads end-of-stream (the server side was shut down);
  // false when it would block.
  bool peerSeesTheEnd() const {
    char byte;
    return ::recv(peer_, &byte, 1, MSG_DONTWAIT) == 0;
  }
  // True when the server side can still send to the peer.
  bool serverCanSend() const { return ::send(server_, "x", 1, MSG_NOSIGNAL) == 1; }

 private:
  int server_ = -1;
  int peer_ = -1;
};

TEST(RequestDeadlines, AConnectionPastItsDeadlineIsShutDownOnce) {
  RequestDeadlines deadlines(kTimeout);
  SocketPair sockets;
  const auto before = Clock::now();
  const RequestDeadlines::Watch watch(deadlines, sockets.server(), "192.0.2.1:4000");
  const auto after = Clock::now();
  EXPECT_TRUE(deadlines.closeOverdue(before + kTimeout - 1ms).empty());
  EXPECT_FALSE(sockets.peerSeesTheEnd());
  EXPECT_EQ(deadlines.closeOverdue(after + kTimeout + 1ms),
            (std::vector<RequestDeadlines::Overdue>{{"192.0.2.1:4000", false}}));
  EXPECT_TRUE(sockets.peerSeesTheEnd());
  EXPECT_FALSE(sockets.serverCanSend());
  EXPECT_TRUE(deadlines.closeOverdue(after + kTimeout + 1h).empty());
  EXPECT_EQ(deadlines.closedCounts().requestOverdue, 1u);
  EXPECT_EQ(deadlines.closedCounts().handshakeOverdue, 0u);
}

TEST(RequestDeadlines, NoDeadlineRunsWhileARequestIsAnswered) {
  RequestDeadlines deadlines(kTimeout);
  SocketPair sockets;
  const RequestDeadlines::Watch watch(deadlines, sockets.server(), "192.0.2.1:4000");
  markRequestReceived();
  EXPECT_TRUE(deadlines.closeOverdue(Clock::now() + 24h).empty());
  EXPECT_TRUE(sockets.serverCanSend());
}

TEST(RequestDeadlines, TheNextRequestsDeadlineStartsWithTheResponse) {
  RequestDeadlines deadlines(kTimeout);
  SocketPair sockets;
  const RequestDeadlines::Watch watch(deadlines, sockets.server(), "192.0.2.1:4000");
  markRequestReceived();
  const auto before = Clock::now();
  markRequestAnswered();
  const auto after = Clock::now();
  EXPECT_TRUE(deadlines.closeOverdue(before + kTimeout - 1ms).empty());
  EXPECT_EQ(deadlines.closeOverdue(after + kTimeout + 1ms).size(), 1u);
  EXPECT_TRUE(sockets.peerSeesTheEnd());
}

TEST(RequestDeadlines, MarksFromAThreadThatServesNoConnectionChangeNothing) {
  RequestDeadlines deadlines(kTimeout);
  SocketPair sockets;
  const RequestDeadlines::Watch watch(deadlines, sockets.server(), "192.0.2.1:4000");
  const auto after = Clock::now();
  std::thread([] { markRequestReceived(); }).join();
  EXPECT_EQ(deadlines.closeOverdue(after + kTimeout + 1ms).size(), 1u);
}

TEST(RequestDeadlines, OnlyTheOverdueConnectionIsShutDown) {
  RequestDeadlines deadlines(kTimeout);
  SocketPair waiting;
  SocketPair answered;
  const RequestDeadlines::Watch watch(deadlines, waiting.server(), "192.0.2.1:4000");
  std::latch received(1);
  std::latch checked(1);
  std::thread other([&] {
    const RequestDeadlines::Watch otherWatch(deadlines, answered.server(), "192.0.2.2:4000");
    markRequestReceived();
    received.count_down();
    checked.wait();
  });
  received.wait();
  EXPECT_EQ(deadlines.closeOverdue(Clock::now() + 1h),
            (std::vector<RequestDeadlines::Overdue>{{"192.0.2.1:4000", false}}));
  checked.count_down();
  other.join();
  EXPECT_TRUE(waiting.peerSeesTheEnd());
  EXPECT_TRUE(answered.serverCanSend());
}

TEST(RequestDeadlines, ATlsHandshakeHasItsOwnShorterDeadline) {
  constexpr std::chrono::milliseconds kHandshakeTimeout{1000};
  RequestDeadlines deadlines(kTimeout, kHandshakeTimeout);
  SocketPair sockets;
  const auto before = Clock::now();
  const RequestDeadlines::Watch watch(deadlines, sockets.server(), "192.0.2.1:4000", true);
  const auto after = Clock::now();
  EXPECT_TRUE(deadlines.closeOverdue(before + kHandshakeTimeout - 1ms).empty());
  EXPECT_EQ(deadlines.closeOverdue(after + kHandshakeTimeout + 1ms),
            (std::vector<RequestDeadlines::Overdue>{{"192.0.2.1:4000", true}}));
  EXPECT_TRUE(sockets.peerSeesTheEnd());
  EXPECT_EQ(deadlines.closedCounts().requestOverdue, 0u);
  EXPECT_EQ(deadlines.closedCounts().handshakeOverdue, 1u);
}

TEST(RequestDeadlines, TheRequestDeadlineStartsWhenTheHandshakeIsDone) {
  constexpr std::chrono::milliseconds kHandshakeTimeout{1000};
  RequestDeadlines deadlines(kTimeout, kHandshakeTimeout);
  SocketPair sockets;
  RequestDeadlines::Watch watch(deadlines, sockets.server(), "192.0.2.1:4000", true);
  const auto before = Clock::now();
  watch.handshakeDone();
  const auto after = Clock::now();
  EXPECT_TRUE(deadlines.closeOverdue(before + kTimeout - 1ms).empty());
  EXPECT_FALSE(sockets.peerSeesTheEnd());
  EXPECT_EQ(deadlines.closeOverdue(after + kTimeout + 1ms),
            (std::vector<RequestDeadlines::Overdue>{{"192.0.2.1:4000", false}}));
}

TEST(RequestDeadlines, AnEndedConnectionIsNoLongerWatched) {
  RequestDeadlines deadlines(kTimeout);
  SocketPair sockets;
  { const RequestDeadlines::Watch watch(deadlines, sockets.server(), "192.0.2.1:4000"); }
  EXPECT_TRUE(deadlines.closeOverdue(Clock::now() + 1h).empty());
  EXPECT_TRUE(sockets.serverCanSend());
  markRequestAnswered();  // the thread serves nothing any more
  EXPECT_TRUE(deadlines.closeOverdue(Clock::now() + 1h).empty());
}

}  // namespace
}  // namespace codepayload::server
