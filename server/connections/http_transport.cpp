#include "server/connections/http_transport.h"

#include <Poco/Net/SocketAddress.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <fcntl.h>
#include <optional>
#include <system_error>

#include "common/address_key.h"

namespace codepayload::server {

namespace {

constexpr std::chrono::milliseconds kReportTick{100};
constexpr std::chrono::seconds kRefusalReportInterval{10};
// After accept fails for want of descriptors: the pause before trying again.
constexpr std::chrono::milliseconds kAcceptBackoff{100};

int newEventFd() {
  const int fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot create the transport's eventfd");
  return fd;
}

bool hasBytesToRead(int fd) {
  int bytes = 0;
  return ::ioctl(fd, FIONREAD, &bytes) == 0 && bytes > 0;
}

}  // namespace

void deferAcceptUntilFirstBytes(const Poco::Net::Socket& socket, std::chrono::seconds timeout) {
  const int seconds = static_cast<int>(timeout.count());
  if (::setsockopt(socket.impl()->sockfd(), IPPROTO_TCP, TCP_DEFER_ACCEPT, &seconds, sizeof seconds) != 0) {
    throw std::system_error(errno, std::generic_category(), "cannot defer accepting connections (TCP_DEFER_ACCEPT)");
  }
}

// One accepted connection: its HTTP, where it waits, and its work.
class HttpTransport::Connection final : public WaitingRoom::Guest, public WorkerPool::Job {
 public:
  Connection(HttpTransport& transport, std::unique_ptr<ConnectionStream> stream, const Poco::Net::SocketAddress& peer,
             HttpService& service)
      : transport_(transport),
        http_(std::move(stream), peer.host(), peer.toString(), transport.settings_, service, transport.hooks_) {}

  void run() noexcept override {
    HttpConnection::Next next = step(wake_);
    // While the server is not oversubscribed (fewer connections wait in the
    // waiting room than workers wait for work, none of which is queued), this
    // worker stays with the connection and waits on its socket itself: a
    // client that sends its next request at once (a busy one) costs no trip
    // through the waiting room. Work queued for a worker ends that wait at
    // once (the pool's lending interrupt), and the connection is parked.
    while (!next.ending && transport_.mayLend()) {
      const std::optional<HttpConnection::Wake> woken = waitWithWorker(next);
      if (!woken) break;
      next = step(*woken);
    }
    if (next.ending) {
      transport_.end(*this, *next.ending);  // deletes this
    } else {
      transport_.park(*this, next);
    }
  }

  void wakeWith(WaitingRoom::Wake wake) {
    switch (wake) {
      case WaitingRoom::Wake::Ready: wake_ = HttpConnection::Wake::Ready; break;
      case WaitingRoom::Wake::Expired: wake_ = HttpConnection::Wake::Expired; break;
      case WaitingRoom::Wake::Stopping: wake_ = HttpConnection::Wake::Stopping; break;
    }
  }

  HttpConnection& http() { return http_; }
  // Its slot's identity: the socket's descriptor, unique among open ones
  // (the slot goes back before the socket closes).
  AddressSlots::Connection identity() { return static_cast<AddressSlots::Connection>(http_.stream().fd()); }

 private:
  HttpConnection::Next step(HttpConnection::Wake wake) {
    try {
      return http_.advance(wake);
    } catch (const std::exception& error) {
      // Out of memory, in the middle of a step: this connection cannot go
      // on; the others do.
      transport_.log_({app::LogLevel::Error,
                       "closed the connection from " + http_.peerAddress() + ": " + error.what()});
      HttpConnection::Next ended;
      ended.ending = HttpConnection::Ending::Stopped;
      return ended;
    }
  }

  // Waits on the socket for what `next` waits for, until its deadline;
  // nullopt when work was queued for a worker first.
  std::optional<HttpConnection::Wake> waitWithWorker(const HttpConnection::Next& next) {
    std::array<pollfd, 2> watched{
        pollfd{http_.stream().fd(), static_cast<short>(next.readable ? POLLIN : POLLOUT), 0},
        pollfd{transport_.workers_.lendingInterrupt(), POLLIN, 0}};
    while (true) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(next.deadline - HttpConnection::Clock::now());
      if (left.count() <= 0) return HttpConnection::Wake::Expired;
      const int ready = ::poll(watched.data(), watched.size(),
                               static_cast<int>(std::min<std::chrono::milliseconds::rep>(left.count(), 60'000)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0 || watched[1].revents != 0) return std::nullopt;
      if (watched[0].revents != 0) return HttpConnection::Wake::Ready;
    }
  }

  HttpTransport& transport_;
  HttpConnection http_;
  HttpConnection::Wake wake_ = HttpConnection::Wake::Start;
};

struct HttpTransport::Listener {
  Poco::Net::ServerSocket socket;
  SSL_CTX* tls = nullptr;
  HttpService* service = nullptr;
  std::thread thread;
};

HttpTransport::HttpTransport(const ConnectionLimits& limits, const HttpSettings& settings,
                             std::function<void(const app::LogLine&)> log)
    : limits_(limits),
      settings_(settings),
      log_(std::move(log)),
      hooks_{&stopping_, log_},
      acceptWakeup_(newEventFd()),
      slots_(limits.perAddress),
      workers_(limits.minThreads, limits.maxThreads),
      waitingRoom_([this](WaitingRoom::Guest& guest, WaitingRoom::Wake wake) {
        auto& connection = static_cast<Connection&>(guest);
        connection.wakeWith(wake);
        workers_.submit(connection);
      }),
      reporter_([this] { reportRefusals(); }) {}

HttpTransport::~HttpTransport() {
  stopAccepting();
  stopConnections(true);
  {
    std::unique_lock lock(connectionsMutex_);
    noConnections_.wait(lock, [this] { return connections_.empty(); });
  }
  {
    const std::lock_guard lock(countsMutex_);
    reporterStopping_ = true;
  }
  reporterWake_.notify_all();
  reporter_.join();
  ::close(acceptWakeup_);
}

void HttpTransport::serve(const Poco::Net::ServerSocket& socket, SSL_CTX* tls, HttpService& service) {
  auto listener = std::make_unique<Listener>();
  listener->socket = socket;
  listener->tls = tls;
  listener->service = &service;
  // Accepted in a loop that polls first: a connection gone before accept()
  // must not block it.
  const int fd = socket.impl()->sockfd();
  if (::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
    throw std::system_error(errno, std::generic_category(), "cannot make a listening socket non-blocking");
  }
  Listener& started = *listener;
  listeners_.push_back(std::move(listener));
  started.thread = std::thread([this, &started] { acceptLoop(started); });
}

void HttpTransport::stopAccepting() {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto written = ::write(acceptWakeup_, &one, sizeof one);
  for (const std::unique_ptr<Listener>& listener : listeners_) {
    if (listener->thread.joinable()) listener->thread.join();
    listener->socket.close();
  }
}

bool HttpTransport::mayLend() const {
  return !workers_.workWaiting() &&
         waitingRoom_.parkedNow() < static_cast<std::size_t>(std::max(workers_.idleWorkers(), 0));
}

void HttpTransport::stopConnections(bool abortCurrent) {
  stopping_.store(true);
  // A worker waiting with its connection goes back to the pool, the
  // connection to the waiting room, which ends it when it is idle.
  workers_.stopLending();
  if (!abortCurrent) {
    waitingRoom_.wakeIdle();
    return;
  }
  waitingRoom_.wakeAll();
  // A worker waiting for a reader inside a streamed answer: its wait ends.
  const std::lock_guard lock(connectionsMutex_);
  for (Connection* connection : connections_) connection->http().stream().shutdownBoth();
}

std::size_t HttpTransport::openConnections() const {
  const std::lock_guard lock(connectionsMutex_);
  return connections_.size();
}

HttpTransport::Counts HttpTransport::counts() const {
  const std::lock_guard lock(countsMutex_);
  return counts_;
}

void HttpTransport::acceptLoop(Listener& listener) {
  const int listening = listener.socket.impl()->sockfd();
  std::array<pollfd, 2> watched{pollfd{listening, POLLIN, 0}, pollfd{acceptWakeup_, POLLIN, 0}};
  while (true) {
    const int ready = ::poll(watched.data(), watched.size(), -1);
    if (ready < 0 && errno == EINTR) continue;
    if (watched[1].revents != 0) return;
    if (ready <= 0 || (watched[0].revents & POLLIN) == 0) continue;
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    const int fd = ::accept4(listening, reinterpret_cast<sockaddr*>(&address), &length, SOCK_CLOEXEC);
    if (fd >= 0) {
      admit(listener, fd, Poco::Net::SocketAddress(reinterpret_cast<const sockaddr*>(&address), length));
    } else if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
      std::this_thread::sleep_for(kAcceptBackoff);
    }
  }
}

void HttpTransport::admit(Listener& listener, int fd, const Poco::Net::SocketAddress& peer) {
  const std::string host = peer.host().toString();
  // Held back by the kernel until its first bytes, or until the deferral
  // ended: a connection with nothing to read has been silent all along.
  std::optional<Refusal> refusal;
  if (limits_.refuseSilent && !hasBytesToRead(fd)) {
    refusal = Refusal::Silent;
  } else if (workers_.queued() >= static_cast<std::size_t>(limits_.maxQueued)) {
    refusal = Refusal::QueueFull;
  } else if (openConnections() >= static_cast<std::size_t>(limits_.maxConnections)) {
    refusal = Refusal::OverConnectionLimit;
  } else if (!slots_.admit(static_cast<AddressSlots::Connection>(fd), common::addressKey(host))) {
    refusal = Refusal::OverAddressLimit;
  }
  if (refusal) {
    // Counted before the close, so a peer that sees it closed finds it counted.
    recordRefusal(*refusal, host);
    ::close(fd);
    return;
  }
  Connection* connection = nullptr;
  try {
    connection = new Connection(*this, std::make_unique<ConnectionStream>(fd, listener.tls), peer, *listener.service);
  } catch (const std::exception& error) {
    // ConnectionStream closed the descriptor.
    slots_.release(static_cast<AddressSlots::Connection>(fd));
    log_({app::LogLevel::Warning, "could not serve a connection from " + host + ": " + error.what()});
    return;
  }
  {
    const std::lock_guard lock(connectionsMutex_);
    connections_.insert(connection);
  }
  workers_.submit(*connection);
}

void HttpTransport::park(Connection& connection, const HttpConnection::Next& next) {
  try {
    waitingRoom_.park(connection, connection.http().stream().fd(),
                      next.readable ? WaitingRoom::Interest::Readable : WaitingRoom::Interest::Writable, next.deadline,
                      next.idle);
  } catch (const std::system_error& error) {
    log_({app::LogLevel::Error, "closed the connection from " + connection.http().peerAddress() + ": " + error.what()});
    end(connection, HttpConnection::Ending::Stopped);
  }
}

void HttpTransport::end(Connection& connection, HttpConnection::Ending ending) {
  const std::string& peer = connection.http().peerAddress();
  std::optional<std::string> line;
  {
    const std::lock_guard lock(countsMutex_);
    switch (ending) {
      case HttpConnection::Ending::HandshakeOverdue:
        ++counts_.closedHandshakeOverdue;
        line = "closed the connection from " + peer + ": no TLS handshake within " +
               std::to_string(settings_.tlsHandshakeTimeout.count()) + " ms (http.tlsHandshakeTimeout)";
        break;
      case HttpConnection::Ending::RequestOverdue:
        ++counts_.closedOverdue;
        line = "closed the connection from " + peer + ": no whole request within " +
               std::to_string(settings_.requestTimeout.count()) + " ms (http.requestTimeout)";
        break;
      case HttpConnection::Ending::SlowReader:
        ++counts_.closedSlowReader;
        line = settings_.minSendRate == 0
                   ? "closed the connection from " + peer + ": it read nothing of an answer for " +
                         std::to_string(settings_.ioTimeout.count()) + " s (http.ioTimeout)"
                   : "closed the connection from " + peer + ": it read its answers slower than " +
                         std::to_string(settings_.minSendRate) + " bytes a second (http.minSendRate)";
        break;
      case HttpConnection::Ending::Closed:
      case HttpConnection::Ending::IdleTimeout:
      case HttpConnection::Ending::WriteFailed:
      case HttpConnection::Ending::Stopped: break;
    }
  }
  // Logged and counted before the close, so a peer that sees its connection
  // closed also finds it in the counts.
  if (line) log_(*line);
  slots_.release(connection.identity());
  {
    const std::lock_guard lock(connectionsMutex_);
    connections_.erase(&connection);
    delete &connection;
    if (connections_.empty()) noConnections_.notify_all();
  }
}

void HttpTransport::recordRefusal(Refusal refusal, std::string_view address) {
  const std::lock_guard lock(countsMutex_);
  switch (refusal) {
    case Refusal::Silent:
      ++counts_.refusedSilent;
      ++unreportedSilent_;
      lastSilentAddress_ = address;
      return;
    case Refusal::OverAddressLimit:
      ++counts_.refusedOverAddressLimit;
      ++unreportedOverAddressLimit_;
      break;
    case Refusal::QueueFull:
      ++counts_.refusedQueueFull;
      ++unreportedQueueFull_;
      break;
    case Refusal::OverConnectionLimit:
      ++counts_.refusedOverConnectionLimit;
      ++unreportedOverConnectionLimit_;
      break;
  }
  lastRefusedAddress_ = address;
}

void HttpTransport::reportRefusals() {
  auto nextReport = std::chrono::steady_clock::now();
  std::unique_lock lock(countsMutex_);
  while (!reporterWake_.wait_for(lock, kReportTick, [this] { return reporterStopping_; })) {
    const auto now = std::chrono::steady_clock::now();
    const std::uint64_t refused = unreportedOverAddressLimit_ + unreportedQueueFull_ + unreportedOverConnectionLimit_;
    if (now < nextReport || (refused == 0 && unreportedSilent_ == 0)) continue;
    std::vector<std::string> lines;
    if (unreportedSilent_ > 0) {
      lines.push_back("refused " + std::to_string(unreportedSilent_) +
                      " new connection(s) that sent nothing within http.firstBytesTimeout; the last from " +
                      lastSilentAddress_);
      unreportedSilent_ = 0;
    }
    if (refused > 0) {
      lines.push_back("refused " + std::to_string(refused) + " new connection(s): " +
                      std::to_string(unreportedOverAddressLimit_) + " over the limit of " +
                      std::to_string(slots_.perAddress()) + " per address (http.maxConnectionsPerAddress), " +
                      std::to_string(unreportedOverConnectionLimit_) + " over the limit of " +
                      std::to_string(limits_.maxConnections) + " in all (http.maxConnections), " +
                      std::to_string(unreportedQueueFull_) +
                      " with every worker busy and the queue full (http.maxQueued); the last from " +
                      lastRefusedAddress_);
      unreportedOverAddressLimit_ = 0;
      unreportedQueueFull_ = 0;
      unreportedOverConnectionLimit_ = 0;
    }
    nextReport = now + kRefusalReportInterval;
    lock.unlock();
    for (const std::string& line : lines) log_(line);
    lock.lock();
  }
}

}  // namespace codepayload::server
