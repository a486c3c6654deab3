// The service's transport: accepts connections on its listening sockets,
// runs their HTTP (server/connections/http_connection.h) on a pool of workers, and parks
// every connection that waits for its peer in a waiting room, so a worker is
// only ever busy with the server's own work (server/connections/waiting_room.h,
// server/connections/worker_pool.h). At accept a connection is refused, before it costs
// a TLS handshake or any memory, when:
//  - it has sent nothing yet (with `refuseSilent`: its listening socket held
//    it back until its first bytes or the end of a deferral, see
//    deferAcceptUntilFirstBytes);
//  - the queue of connections waiting for a worker is full (every worker busy);
//  - the server holds `maxConnections` connections;
//  - its address (an IPv6 address counts for its /64) holds `perAddress`.
// Refusals are logged as one line at most every 10 s; each connection closed
// by a deadline (TLS handshake, request, a reader too slow) as one line.
#pragma once

#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <openssl/ssl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <vector>

#include "server/connections/address_slots.h"
#include "server/connections/http_connection.h"
#include "server/connections/waiting_room.h"
#include "server/connections/worker_pool.h"

namespace codepayload::server {

struct ConnectionLimits {
  int perAddress = 32;         // 0: no limit
  int maxConnections = 1024;   // open connections in all, waiting ones included
  int maxQueued = 256;         // connections ready for a worker while none is free
  int minThreads = 8;
  int maxThreads = 64;
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

class HttpTransport {
 public:
  // `settings` and every service given to serve() outlive the transport;
  // `log` gets the lines described above.
  HttpTransport(const ConnectionLimits& limits, const HttpSettings& settings,
                std::function<void(const app::LogLine&)> log);
  // Stops accepting and closes every connection at once.
  ~HttpTransport();

  HttpTransport(const HttpTransport&) = delete;
  HttpTransport& operator=(const HttpTransport&) = delete;

  // Accepts connections on `socket` (bound and listening) from now on and
  // serves them with `service`: TLS with `tls` (outliving the transport),
  // plain HTTP with nullptr.
  void serve(const Poco::Net::ServerSocket& socket, SSL_CTX* tls, HttpService& service);

  // Closes the listening sockets; open connections go on.
  void stopAccepting();
  // Tells every connection that the server stops: those waiting for a next
  // request close at once, busy ones after their answer (or at once with
  // `abortCurrent`).
  void stopConnections(bool abortCurrent);

  std::size_t openConnections() const;
  // Connections waiting in the waiting room.
  std::size_t waitingConnections() const { return waitingRoom_.parked(); }
  int busyWorkers() const { return workers_.busy(); }

  struct Counts {
    std::uint64_t refusedOverAddressLimit = 0;
    std::uint64_t refusedQueueFull = 0;
    std::uint64_t refusedSilent = 0;
    std::uint64_t refusedOverConnectionLimit = 0;
    std::uint64_t closedOverdue = 0;
    std::uint64_t closedHandshakeOverdue = 0;
    std::uint64_t closedSlowReader = 0;
  };
  Counts counts() const;

 private:
  class Connection;
  struct Listener;
  enum class Refusal { OverAddressLimit, QueueFull, Silent, OverConnectionLimit };

  void acceptLoop(Listener& listener);
  void admit(Listener& listener, int fd, const Poco::Net::SocketAddress& peer);
  void park(Connection& connection, const HttpConnection::Next& next);
  // Whether a worker may stay with its connection to wait (Connection::run).
  bool mayLend() const;
  void end(Connection& connection, HttpConnection::Ending ending);
  void recordRefusal(Refusal refusal, std::string_view address);
  void reportRefusals();

  const ConnectionLimits limits_;
  const HttpSettings& settings_;
  const std::function<void(const app::LogLine&)> log_;
  std::atomic<bool> stopping_{false};
  HttpConnectionHooks hooks_;
  const int acceptWakeup_;  // an eventfd: the accept threads stop
  AddressSlots slots_;

  mutable std::mutex connectionsMutex_;  // guards connections_
  std::unordered_set<Connection*> connections_;
  std::condition_variable noConnections_;

  // Declared after what their threads use, so they stop first.
  WorkerPool workers_;
  WaitingRoom waitingRoom_;

  mutable std::mutex countsMutex_;  // guards everything below
  Counts counts_;
  std::uint64_t unreportedOverAddressLimit_ = 0;
  std::uint64_t unreportedQueueFull_ = 0;
  std::uint64_t unreportedSilent_ = 0;
  std::uint64_t unreportedOverConnectionLimit_ = 0;
  std::string lastRefusedAddress_;
  std::string lastSilentAddress_;
  std::condition_variable reporterWake_;
  bool reporterStopping_ = false;
  std::thread reporter_;

  std::vector<std::unique_ptr<Listener>> listeners_;
};

}  // namespace codepayload::server
