#include "server/connection_guard.h"
#include "common/address_key.h"

#include <Poco/Exception.h>
#include <Poco/Net/SecureStreamSocketImpl.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/Net/TCPServerConnection.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <cerrno>
#include <system_error>
#include <vector>

namespace codepayload::server {

namespace {

constexpr std::chrono::milliseconds kWatchInterval{100};
constexpr std::chrono::seconds kRefusalReportInterval{10};

int descriptorOf(const Poco::Net::StreamSocket& socket) { return socket.impl()->sockfd(); }

// Unique among live connections: every copy of a StreamSocket shares one
// implementation object, alive until the connection is over.
AddressSlots::Connection identityOf(const Poco::Net::StreamSocket& socket) {
  return reinterpret_cast<AddressSlots::Connection>(socket.impl());
}

}  // namespace

void deferAcceptUntilFirstBytes(const Poco::Net::Socket& socket, std::chrono::seconds timeout) {
  const int seconds = static_cast<int>(timeout.count());
  if (::setsockopt(socket.impl()->sockfd(), IPPROTO_TCP, TCP_DEFER_ACCEPT, &seconds, sizeof seconds) != 0) {
    throw std::system_error(errno, std::generic_category(), "cannot defer accepting connections (TCP_DEFER_ACCEPT)");
  }
}

bool hasBytesToRead(const Poco::Net::Socket& socket) {
  int bytes = 0;
  return ::ioctl(socket.impl()->sockfd(), FIONREAD, &bytes) == 0 && bytes > 0;
}

class ConnectionGuard::AdmissionFilter final : public Poco::Net::TCPServerConnectionFilter {
 public:
  AdmissionFilter(ConnectionGuard& guard, const Poco::Net::TCPServer& server) : guard_(guard), server_(server) {}

  // Runs on the server's accept thread, the only one that adds to its queue,
  // so a connection admitted here always finds room in the queue.
  bool accept(const Poco::Net::StreamSocket& socket) override {
    std::string address;
    try {
      address = socket.peerAddress().host().toString();
    } catch (const Poco::Exception&) {
      return false;  // the peer is already gone
    }
    // Held back by the kernel until its first bytes, or until the deferral
    // ended: a connection with nothing to read has been silent all along.
    if (guard_.refuseSilent_ && !hasBytesToRead(socket)) {
      guard_.recordRefusal(Refusal::Silent, address);
      return false;
    }
    if (server_.queuedConnections() >= server_.params().getMaxQueued()) {
      guard_.recordRefusal(Refusal::QueueFull, address);
      return false;
    }
    if (!guard_.slots_.admit(identityOf(socket), common::addressKey(address))) {
      guard_.recordRefusal(Refusal::OverAddressLimit, address);
      return false;
    }
    return true;
  }

 private:
  ConnectionGuard& guard_;
  const Poco::Net::TCPServer& server_;
};

namespace {

struct SlotRelease {
  AddressSlots& slots;
  AddressSlots::Connection connection;
  ~SlotRelease() { slots.release(connection); }
};

}  // namespace

class ConnectionGuard::HttpConnection final : public Poco::Net::TCPServerConnection {
 public:
  HttpConnection(const Poco::Net::StreamSocket& socket, const HttpSettings& settings, HttpService& service,
                 ConnectionGuard& guard)
      : Poco::Net::TCPServerConnection(socket), settings_(settings), service_(service), guard_(guard) {}

  // For the paths that leave run() before its SlotRelease exists (peer gone,
  // no descriptor for the Watch); otherwise the slot is already back.
  ~HttpConnection() override { guard_.slots_.release(identityOf(socket())); }

  void run() override {
    Poco::Net::SocketAddress peer;
    try {
      peer = socket().peerAddress();
    } catch (const Poco::Exception&) {
      return;  // the peer is already gone
    }
    auto* const tls = dynamic_cast<Poco::Net::SecureStreamSocketImpl*>(socket().impl());
    RequestDeadlines::Watch watch(guard_.deadlines_, descriptorOf(socket()), peer.toString(), tls != nullptr);
    // The slot goes back before the Watch closes the last descriptor of the
    // socket, so a client that reconnects as soon as it sees the close finds
    // it free.
    const SlotRelease release{guard_.slots_, identityOf(socket())};
    if (tls != nullptr) {
      // Here, under its own deadline, not lazily in the first read.
      const Poco::Timespan ioTimeout(static_cast<long>(settings_.ioTimeout.count()), 0);
      socket().setReceiveTimeout(ioTimeout);
      socket().setSendTimeout(ioTimeout);
      try {
        if (tls->completeHandshake() <= 0) return;
      } catch (const Poco::Exception&) {
        return;  // cut, timed out, or not TLS
      }
      watch.handshakeDone();
    }
    serveHttpConnection(socket(), peer, settings_, service_, guard_.hooks_);
  }

 private:
  const HttpSettings& settings_;
  HttpService& service_;
  ConnectionGuard& guard_;
};

class ConnectionGuard::HttpConnectionFactory final : public Poco::Net::TCPServerConnectionFactory {
 public:
  HttpConnectionFactory(const HttpSettings& settings, HttpService& service, ConnectionGuard& guard)
      : settings_(settings), service_(service), guard_(guard) {}

  Poco::Net::TCPServerConnection* createConnection(const Poco::Net::StreamSocket& socket) override {
    return new HttpConnection(socket, settings_, service_, guard_);
  }

 private:
  const HttpSettings& settings_;
  HttpService& service_;
  ConnectionGuard& guard_;
};

ConnectionGuard::ConnectionGuard(const ConnectionLimits& limits, std::function<void(const app::LogLine&)> log)
    : slots_(limits.perAddress),
      deadlines_(limits.requestTimeout, limits.tlsHandshakeTimeout),
      log_(std::move(log)),
      refuseSilent_(limits.refuseSilent),
      hooks_{&stopping_, log_},
      watchdog_([this] { watchdog(); }) {}

ConnectionGuard::~ConnectionGuard() {
  {
    const std::lock_guard lock(mutex_);
    watchdogStopping_ = true;
  }
  stopSignal_.notify_all();
  watchdog_.join();
}

Poco::Net::TCPServerConnectionFactory::Ptr ConnectionGuard::httpConnectionFactory(const HttpSettings& settings,
                                                                                  HttpService& service) {
  return new HttpConnectionFactory(settings, service, *this);
}

void ConnectionGuard::stopConnections(bool abortCurrent) {
  stopping_.store(true);
  deadlines_.closeIdle(abortCurrent);
}

Poco::Net::TCPServerConnectionFilter::Ptr ConnectionGuard::admissionFilter(const Poco::Net::TCPServer& server) {
  return new AdmissionFilter(*this, server);
}

ConnectionGuard::Counts ConnectionGuard::counts() const {
  const RequestDeadlines::ClosedCounts closed = deadlines_.closedCounts();
  const std::lock_guard lock(mutex_);
  Counts counts = counts_;
  counts.closedOverdue = closed.requestOverdue;
  counts.closedHandshakeOverdue = closed.handshakeOverdue;
  return counts;
}

void ConnectionGuard::recordRefusal(Refusal refusal, std::string_view address) {
  const std::lock_guard lock(mutex_);
  if (refusal == Refusal::Silent) {
    ++counts_.refusedSilent;
    ++unreportedSilent_;
    lastSilentAddress_ = address;
    return;
  }
  if (refusal == Refusal::OverAddressLimit) {
    ++counts_.refusedOverAddressLimit;
    ++unreportedOverAddressLimit_;
  } else {
    ++counts_.refusedQueueFull;
    ++unreportedQueueFull_;
  }
  lastRefusedAddress_ = address;
}

void ConnectionGuard::watchdog() {
  auto nextReport = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  while (!stopSignal_.wait_for(lock, kWatchInterval, [this] { return watchdogStopping_; })) {
    const auto now = std::chrono::steady_clock::now();
    lock.unlock();
    const std::vector<RequestDeadlines::Overdue> closed = deadlines_.closeOverdue(now);
    for (const RequestDeadlines::Overdue& overdue : closed) {
      if (overdue.inHandshake) {
        log_("closed the connection from " + overdue.peer + ": no TLS handshake within " +
             std::to_string(deadlines_.handshakeTimeout().count()) + " ms (http.tlsHandshakeTimeout)");
      } else {
        log_("closed the connection from " + overdue.peer + ": no whole request within " +
             std::to_string(deadlines_.timeout().count()) + " ms (http.requestTimeout)");
      }
    }
    lock.lock();
    if (now < nextReport || (unreportedOverAddressLimit_ == 0 && unreportedQueueFull_ == 0 && unreportedSilent_ == 0)) {
      continue;
    }
    std::vector<std::string> lines;
    if (unreportedSilent_ > 0) {
      lines.push_back("refused " + std::to_string(unreportedSilent_) +
                      " new connection(s) that sent nothing within http.firstBytesTimeout; the last from " +
                      lastSilentAddress_);
      unreportedSilent_ = 0;
    }
    if (unreportedOverAddressLimit_ + unreportedQueueFull_ > 0) {
      lines.push_back(refusalLine());
    }
    nextReport = now + kRefusalReportInterval;
    lock.unlock();
    for (const std::string& line : lines) log_(line);
    lock.lock();
  }
}

std::string ConnectionGuard::refusalLine() {
  const std::string line = "refused " + std::to_string(unreportedOverAddressLimit_ + unreportedQueueFull_) +
                           " new connection(s): " + std::to_string(unreportedOverAddressLimit_) +
                           " over the limit of " + std::to_string(slots_.perAddress()) +
                           " per address (http.maxConnectionsPerAddress), " + std::to_string(unreportedQueueFull_) +
                           " with every worker busy and the queue full (http.maxQueued); the last from " +
                           lastRefusedAddress_;
  unreportedOverAddressLimit_ = 0;
  unreportedQueueFull_ = 0;
  return line;
}

}  // namespace codepayload::server
