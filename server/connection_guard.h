// Keeps slow, idle and numerous clients from taking every worker of Poco's
// thread-per-connection server:
//  - at accept time, a connection is refused when it has sent nothing yet
//    (with `refuseSilent`: its listening socket held it back until its first
//    bytes or the end of a deferral, see deferAcceptUntilFirstBytes), when
//    its address (an IPv6
//    address counts for its /64) already holds `perAddress` connections, or
//    when every worker is busy and the server's queue is full (AddressSlots);
//  - a TLS connection must finish its handshake within `tlsHandshakeTimeout`
//    of its worker taking it, and every request must arrive whole within
//    `requestTimeout` of the connection being ready for it (RequestDeadlines);
//  - a watchdog thread enforces the deadlines every 100 ms and logs each
//    connection it closes, and at most every 10 s one line counting refusals.
// A TCPServer takes its connection factory and its accept filter from here;
// both servers (HTTPS and plain) share one guard, so the limits span them.
#pragma once

#include <Poco/Net/TCPServer.h>
#include <Poco/Net/TCPServerConnectionFactory.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "server/address_slots.h"
#include "server/http_connection.h"
#include "server/request_deadlines.h"

namespace codepayload::server {

struct ConnectionLimits {
  std::chrono::milliseconds requestTimeout{30000};
  int perAddress = 32;  // 0: no limit
  std::chrono::milliseconds tlsHandshakeTimeout{3000};
  // Refuse a connection with no bytes to read at accept: only for listening
  // sockets that defer accepting until the first bytes.
  bool refuseSilent = false;
};

// Makes the kernel hold back a new connection on listening socket `socket`
// until its first bytes arrive, for about `timeout` (Linux TCP_DEFER_ACCEPT:
// rounded up to the SYN-ACK retransmissions, 1 s, 3 s, 7 s...); after that
// it hands the connection over anyway, still silent. Throws
// std::system_error when the system refuses the option.
void deferAcceptUntilFirstBytes(const Poco::Net::Socket& socket, std::chrono::seconds timeout);

// True when a received byte waits to be read on `socket`.
bool hasBytesToRead(const Poco::Net::Socket& socket);

class ConnectionGuard {
 public:
  // Starts the watchdog; `log` gets the lines described above.
  ConnectionGuard(const ConnectionLimits& limits, std::function<void(const app::LogLine&)> log);
  // Stops the watchdog. Every server and connection using the guard must be gone.
  ~ConnectionGuard();

  ConnectionGuard(const ConnectionGuard&) = delete;
  ConnectionGuard& operator=(const ConnectionGuard&) = delete;

  // The service's HTTP connection (serveHttpConnection with `settings` for
  // `service`, both outliving every connection), watched by the request
  // deadlines and giving back its address slot when it ends.
  Poco::Net::TCPServerConnectionFactory::Ptr httpConnectionFactory(const HttpSettings& settings, HttpService& service);
  // The accept filter of `server` (set it before start()).
  Poco::Net::TCPServerConnectionFilter::Ptr admissionFilter(const Poco::Net::TCPServer& server);

  // Tells every connection that the servers stop: idle ones close at once,
  // busy ones after their request (or at once with `abortCurrent`).
  void stopConnections(bool abortCurrent);

  struct Counts {
    std::uint64_t refusedOverAddressLimit = 0;
    std::uint64_t refusedQueueFull = 0;
    std::uint64_t refusedSilent = 0;
    std::uint64_t closedOverdue = 0;
    std::uint64_t closedHandshakeOverdue = 0;
  };
  Counts counts() const;

 private:
  class AdmissionFilter;
  class HttpConnection;
  class HttpConnectionFactory;
  enum class Refusal { OverAddressLimit, QueueFull, Silent };

  void recordRefusal(Refusal refusal, std::string_view address);
  void watchdog();
  // The report of the address and queue refusals since the last one (resets
  // their counts); with mutex_ held.
  std::string refusalLine();

  AddressSlots slots_;
  RequestDeadlines deadlines_;
  const std::function<void(const app::LogLine&)> log_;
  const bool refuseSilent_;
  std::atomic<bool> stopping_{false};
  HttpConnectionHooks hooks_;

  mutable std::mutex mutex_;  // guards everything below
  Counts counts_;
  std::uint64_t unreportedOverAddressLimit_ = 0;
  std::uint64_t unreportedQueueFull_ = 0;
  std::uint64_t unreportedSilent_ = 0;
  std::string lastRefusedAddress_;
  std::string lastSilentAddress_;
  std::condition_variable stopSignal_;
  bool watchdogStopping_ = false;
  std::thread watchdog_;
};

}  // namespace codepayload::server
