#include "server/connection_guard.h"
#include "common/address_key.h"

#include <Poco/Exception.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/Net/TCPServerConnection.h>

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
    const RequestDeadlines::Watch watch(guard_.deadlines_, descriptorOf(socket()), peer.toString());
    // The slot goes back before the Watch closes the last descriptor of the
    // socket, so a client that reconnects as soon as it sees the close finds
    // it free.
    const SlotRelease release{guard_.slots_, identityOf(socket())};
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

ConnectionGuard::ConnectionGuard(const ConnectionLimits& limits, std::function<void(std::string_view)> log)
    : slots_(limits.perAddress),
      deadlines_(limits.requestTimeout),
      log_(std::move(log)),
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
  const std::lock_guard lock(mutex_);
  return counts_;
}

void ConnectionGuard::recordRefusal(Refusal refusal, std::string_view address) {
  const std::lock_guard lock(mutex_);
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
    const std::vector<std::string> closedPeers = deadlines_.closeOverdue(now);
    for (const std::string& peer : closedPeers) {
      log_("closed the connection from " + peer + ": no whole request within " +
           std::to_string(deadlines_.timeout().count()) + " ms (http.requestTimeout)");
    }
    lock.lock();
    counts_.closedOverdue += closedPeers.size();
    if (now < nextReport || (unreportedOverAddressLimit_ == 0 && unreportedQueueFull_ == 0)) continue;
    const std::string line = "refused " + std::to_string(unreportedOverAddressLimit_ + unreportedQueueFull_) +
                             " new connection(s): " + std::to_string(unreportedOverAddressLimit_) +
                             " over the limit of " + std::to_string(slots_.perAddress()) +
                             " per address (http.maxConnectionsPerAddress), " + std::to_string(unreportedQueueFull_) +
                             " with every worker busy and the queue full (http.maxQueued); the last from " +
                             lastRefusedAddress_;
    unreportedOverAddressLimit_ = 0;
    unreportedQueueFull_ = 0;
    nextReport = now + kRefusalReportInterval;
    lock.unlock();
    log_(line);
    lock.lock();
  }
}

}  // namespace codepayload::server
