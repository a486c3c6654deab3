// The service's HTTP/1.1 connection: reads each request head strictly
// (server/http_head.h), hands the request to an HttpService as an
// HttpExchange, and writes the answer. The request body is read in one place
// only, here: a handler asks for it with readBody(), and when it answers
// without asking, the exchange drains a small body of known length or closes
// the connection after the answer. So no route, present or future, can leave
// body bytes to be parsed as a next request (request smuggling). The status
// line is always HTTP/1.1; nothing of the request line is echoed.
#pragma once

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/logging.h"
#include "server/chunked_decoder.h"
#include "server/http_head.h"
#include "server/trusted_proxies.h"

namespace codepayload::server {

struct HttpSettings {
  HeadLimits head;
  std::chrono::seconds ioTimeout{5};         // one socket read or write
  std::chrono::seconds keepAliveTimeout{5};  // the wait for a next request
  int maxKeepAliveRequests = 1000;           // 0: no limit
  // Peers whose Forwarded / X-Forwarded-For and X-Request-Id are believed.
  TrustedProxies trustedProxies;
};

// Bodies up to this size are read and dropped when a request is answered
// without reading its body; larger or unknown ones close the connection.
inline constexpr std::size_t kDrainLimit = 64 * 1024;

enum class BodyRead {
  Complete,
  LengthRequired,  // a POST, PUT or PATCH with neither Content-Length nor chunked
  TooLarge,        // Content-Length over the limit (nothing read), or a chunked body passing it
  Incomplete,      // the peer closed, or a read timed out, before the end
  Malformed,       // a chunked body off the grammar
};

// The path of a request target: origin-form up to '?' or '#'; for an
// absolute-form target ("https://host/codes?x") the path part; "" when the
// target has neither form.
std::string_view requestPath(std::string_view target);

class HttpService;
struct HttpConnectionHooks;

class HttpExchange {
 public:
  // `peer` is the client's address and port as Poco prints it.
  HttpExchange(Poco::Net::StreamSocket& socket, const Poco::Net::SocketAddress& peer);

  HttpExchange(const HttpExchange&) = delete;
  HttpExchange& operator=(const HttpExchange&) = delete;

  // --- The request.
  const RequestHead& head() const { return head_; }
  std::string_view method() const { return head_.method; }
  std::string_view target() const { return head_.target; }
  std::string_view path() const { return requestPath(head_.target); }
  // The client's address without the port ("127.0.0.1", "::1"), and with it
  // ("127.0.0.1:50000", "[::1]:50000"): the peer's, or, when the peer is a
  // trusted proxy, the forwarded client's (server/trusted_proxies.h; its
  // port is not known, so clientAddress() is its address alone).
  const std::string& clientHost() const { return clientHost_; }
  const std::string& clientAddress() const { return clientAddress_; }
  // The request's id: a trusted proxy's acceptable X-Request-Id, or a
  // generated one (server/request_id.h). Every answer carries it.
  const std::string& requestId() const { return requestId_; }
  // Stores the values of header `name` in order, at most out.size() of them;
  // returns how many it stored.
  std::size_t fieldValues(std::string_view name, std::span<std::string_view> out) const;
  // The first value of header `name`.
  std::optional<std::string_view> field(std::string_view name) const;

  // --- The body. Reads all of it into `out` (cleared first), at most once
  // per request; sends 100 Continue first when the client asked for it.
  // Anything but Complete closes the connection after the answer, except a
  // Content-Length over `limit` but within kDrainLimit: that body is drained.
  BodyRead readBody(std::size_t limit, std::string& out);
  // Reads and drops the body, at most `limit` bytes of it, without keeping
  // it; false when the connection cannot be kept (over the limit, cut, timed
  // out, malformed, or a 100-continue the client still waits for).
  bool discardBody(std::size_t limit);

  // --- The answer. Headers for the next send(), in order (Content-Type,
  // Content-Length, Date and Connection are written by send()).
  void addHeader(std::string_view name, std::string_view value);
  // No keep-alive after this answer.
  void closeAfterAnswer() { keepAlive_ = false; }
  // Sends the whole answer. Throws Poco::Exception when the socket fails.
  void send(int status, std::string_view contentType, std::string_view body);
  // An answer whose body is written piece by piece (chunked on HTTP/1.1,
  // until the close on HTTP/1.0): beginStream, any number of streamWrite,
  // endStream.
  void beginStream(int status, std::string_view contentType);
  void streamWrite(std::string_view bytes);
  void endStream();

  bool answered() const { return status_ != 0; }
  bool streamOpen() const { return streaming_; }
  int status() const { return status_; }
  std::uint64_t bodyBytesSent() const { return bodyBytesSent_; }

 private:
  friend void serveHttpConnection(Poco::Net::StreamSocket&, const Poco::Net::SocketAddress&, const HttpSettings&,
                                  HttpService&, const HttpConnectionHooks&);

  enum class Received { Bytes, Closed };  // Closed: EOF, reset or timeout

  // Appends what the socket has (at least one byte) to buffer_.
  Received receiveMore();
  void sendAll(std::string_view bytes);
  // Before an answer: reads and drops a body the handler did not read, or
  // turns keep-alive off.
  void settleUnreadBody();
  bool drainBody(std::size_t limit);
  void writeHead(int status, std::string_view contentType, std::optional<std::uint64_t> contentLength, bool chunked);
  // The bytes of the next request (pipelined), from buffer_.
  void consume(std::size_t bytes) { begin_ += bytes; }
  std::string_view pending() const { return std::string_view(buffer_).substr(begin_); }
  void compact();
  void startRequest();
  // After the head is parsed: the client and the request id it names.
  void identifyRequest(const TrustedProxies& proxies);

  Poco::Net::StreamSocket& socket_;
  const Poco::Net::IPAddress peerHost_;
  const std::string peerHostText_;
  const std::string peerAddressText_;
  std::string clientHost_;
  std::string clientAddress_;
  std::string requestId_;

  std::string buffer_;  // received bytes; those from begin_ on are not used yet
  std::size_t begin_ = 0;
  std::string headText_;  // the current head; head_'s views point into it
  RequestHead head_;

  bool bodyRead_ = false;
  bool continueSent_ = false;
  bool keepAlive_ = true;
  bool streaming_ = false;
  bool streamChunked_ = false;
  int status_ = 0;
  std::uint64_t bodyBytesSent_ = 0;
  std::vector<std::pair<std::string, std::string>> headers_;
  std::string out_;  // the answer being written
  bool socketFailed_ = false;
};

// Answers one request whose head passed every check. Must answer; must not throw.
class HttpService {
 public:
  virtual ~HttpService() = default;
  virtual void serve(HttpExchange& exchange) noexcept = 0;
};

// What a connection needs from its server beyond the socket: whether the
// server is stopping, where to log refused requests, and the hooks of its
// request deadline.
struct HttpConnectionHooks {
  const std::atomic<bool>* stopping = nullptr;
  std::function<void(const app::LogLine&)> log;
};

// Serves the requests of one accepted connection, from `peer`, until it closes.
void serveHttpConnection(Poco::Net::StreamSocket& socket, const Poco::Net::SocketAddress& peer,
                         const HttpSettings& settings, HttpService& service, const HttpConnectionHooks& hooks);

}  // namespace codepayload::server
