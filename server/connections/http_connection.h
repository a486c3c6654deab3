// The service's HTTP/1.1 connection: reads each request head strictly
// (server/http/http_head.h), asks the HttpService what to do with the body, reads
// it, has the service answer, and writes the answer. It is a state machine
// run by workers (server/connections/http_transport.h): advance() does everything the
// socket allows now and returns what it waits for, so the transport parks it
// in the waiting room without a worker (the TLS handshake, the next request,
// its head and body, a slow reader of the answer, the lingering close).
//
// The request body is read in one place only, here: the service says how
// much of it it reads (admit), and a body it did not read is dropped after
// the answer when small, or the connection closes after the answer. So no
// route, present or future, can leave body bytes to be parsed as a next
// request (request smuggling). The status line is always HTTP/1.1; nothing
// of the request line is echoed. Answers go out one at a time: the next
// pipelined request is read once the previous answer is in the kernel.
#pragma once

#include <Poco/Net/IPAddress.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/logging.h"
#include "server/http/chunked_decoder.h"
#include "server/http/http_head.h"
#include "server/http/trusted_proxies.h"
#include "server/tls/connection_stream.h"

namespace codepayload::server {

struct HttpSettings {
  HeadLimits head;
  // The longest silence of a client while its request arrives; and the most
  // a client may make the server wait while it reads answers, taken back at
  // minSendRate (below).
  std::chrono::seconds ioTimeout{5};
  std::chrono::seconds keepAliveTimeout{5};  // the wait for a next request
  int maxKeepAliveRequests = 1000;           // 0: no limit
  // Each request's head and body must have arrived within this time of the
  // connection being ready for it (the TLS handshake done, or the previous
  // answer sent; the keep-alive wait counts).
  std::chrono::milliseconds requestTimeout{30000};
  // A TLS connection must finish its handshake within this time of accept.
  std::chrono::milliseconds tlsHandshakeTimeout{3000};
  // Bytes a second a client must take its answers at, on average: every byte
  // it takes gives 1/minSendRate s back to the time it may make the server
  // wait (at most ioTimeout). 0: only ioTimeout without progress ends it.
  std::size_t minSendRate = 16 * 1024;
  // Peers whose X-Request-Id and client address are believed, and the one
  // header they write that address into (server/http/trusted_proxies.h).
  TrustedProxies trustedProxies;
  ForwardedHeader forwardedHeader = ForwardedHeader::XForwardedFor;
};

// Strict-Transport-Security of every answer sent over TLS: a year, for this
// host only (no includeSubDomains, no preload: both speak for names the
// service does not own). Never on plain HTTP: behind plain.listen the
// TLS-terminating proxy owns that header.
inline constexpr std::string_view kStrictTransportSecurity = "max-age=31536000";

// Bodies up to this size are read and dropped when a request is answered
// without reading its body; larger or unknown ones close the connection.
inline constexpr std::size_t kDrainLimit = 64 * 1024;

enum class BodyRead {
  Complete,
  LengthRequired,  // a POST, PUT or PATCH with neither Content-Length nor chunked
  TooLarge,        // Content-Length over the limit (nothing read), or a chunked body passing it
  Incomplete,      // the peer closed before the end
  Malformed,       // a chunked body off the grammar
};

// The path of a request target: origin-form up to '?' or '#'; for an
// absolute-form target ("https://host/codes?x") the path part; "" when the
// target has neither form.
std::string_view requestPath(std::string_view target);

// Thrown out of a handler's answer when the connection can no longer take
// it (the client went away, or read too slowly). The connection ends; the
// handler's caller lets it pass without logging an error.
class ConnectionLost : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class HttpExchange;

// What a service keeps of one request from admit() to the end of its
// answer: the connection calls finished() once the answer's last byte went
// out (`delivered`), or when the connection ended before that. Not called
// for a request that was never answered (its body never came).
class RequestState {
 public:
  virtual ~RequestState() = default;
  virtual void finished(const HttpExchange& exchange, bool delivered) noexcept = 0;
};

// One request and its answer, as a service sees it.
class HttpExchange {
 public:
  HttpExchange(ConnectionStream& stream, const Poco::Net::IPAddress& peerHost, std::string peerAddress,
               const HttpSettings& settings);

  HttpExchange(const HttpExchange&) = delete;
  HttpExchange& operator=(const HttpExchange&) = delete;

  // --- The request.
  const RequestHead& head() const { return head_; }
  std::string_view method() const { return head_.method; }
  std::string_view target() const { return head_.target; }
  std::string_view path() const { return requestPath(head_.target); }
  // The client's address without the port ("127.0.0.1", "::1"), and with it
  // ("127.0.0.1:50000", "[::1]:50000"): the peer's, or, when the peer is a
  // trusted proxy, the forwarded client's (server/http/trusted_proxies.h; its
  // port is not known, so clientAddress() is its address alone).
  const std::string& clientHost() const { return clientHost_; }
  const std::string& clientAddress() const { return clientAddress_; }
  // The request's id: a trusted proxy's acceptable X-Request-Id, or a
  // generated one (server/http/request_id.h). Every answer carries it.
  const std::string& requestId() const { return requestId_; }
  // Stores the values of header `name` in order, at most out.size() of them;
  // returns how many it stored.
  std::size_t fieldValues(std::string_view name, std::span<std::string_view> out) const;
  // The first value of header `name`.
  std::optional<std::string_view> field(std::string_view name) const;

  // --- The body, as the service asked for it in admit(): read whole before
  // serve() (Complete), or why not. With no body, or none asked for,
  // Complete and empty.
  BodyRead bodyRead() const { return bodyRead_; }
  const std::string& body() const { return body_; }
  std::string& body() { return body_; }
  // In admit(), with an answer given there: a body of at most `limit` bytes
  // (or chunked, up to `limit`) is read and dropped after the answer so the
  // connection serves its next request; a larger one closes it. kDrainLimit
  // unless set.
  void dropUnreadBodyUpTo(std::size_t limit) { dropLimit_ = limit; }

  // --- What the service keeps of the request until its answer ends.
  void keep(std::unique_ptr<RequestState> state) { state_ = std::move(state); }
  RequestState* state() const { return state_.get(); }

  // --- The answer. Headers for the next send(), in order (Content-Type,
  // Content-Length, Date and Connection are written by send()).
  void addHeader(std::string_view name, std::string_view value);
  // No keep-alive after this answer.
  void closeAfterAnswer() { keepAlive_ = false; }
  // The whole answer; it goes out once the service returns, as fast as the
  // client takes it, without a worker waiting.
  void send(int status, std::string_view contentType, std::string_view body);
  // The same, keeping `body` without a copy.
  void sendOwned(int status, std::string_view contentType, std::string&& body);
  // An answer whose body is written piece by piece while it is made (chunked
  // on HTTP/1.1, until the close on HTTP/1.0): beginStream, any number of
  // streamWrite, endStream. The pieces go out as they come: a worker waits
  // for a slow reader here, within the client's time allowance
  // (HttpSettings::minSendRate); past it, or when the client went away,
  // streamWrite throws ConnectionLost.
  void beginStream(int status, std::string_view contentType);
  void streamWrite(std::string_view bytes);
  void endStream();

  bool answered() const { return status_ != 0; }
  bool streamOpen() const { return streaming_; }
  int status() const { return status_; }
  // The answer's body bytes: given to send() or streamWrite().
  std::uint64_t bodyBytesSent() const { return bodyBytesSent_; }

 private:
  friend class HttpConnection;

  // The request's body as the connection handles it.
  enum class BodyState {
    None,    // no body, or read whole
    Unread,  // announced, not read: dropped after the answer or the connection closes
    Reading,
  };

  // Appends what the socket has to in_ (Done: at least one byte).
  IoResult receiveMore();
  // The bytes of the next request (pipelined), from in_.
  void consume(std::size_t bytes) { inBegin_ += bytes; }
  std::string_view pending() const { return std::string_view(in_).substr(inBegin_); }
  void compact();
  void startRequest();
  // The request's buffers over what an idle connection keeps are freed, and
  // when one was large (over a few MiB), freed memory goes back to the system.
  void releaseLargeBuffers();
  // After the head is parsed: the client and the request id it names.
  void identifyRequest(const TrustedProxies& proxies, ForwardedHeader forwardedHeader);
  bool unreadBodyCanBeDropped() const;

  void writeHead(int status, std::string_view contentType, std::optional<std::uint64_t> contentLength, bool chunked);
  // Writes what is pending of the answer (or the interim 100 Continue) as far
  // as the socket takes it now; Done once all of it went out.
  IoResult writePending();
  bool outputPending() const { return outOffset_ < out_.size() + outBody_.size(); }
  // Writes everything pending, waiting for the socket (a streamed answer).
  void writeAllWaiting();
  // The time the client may still make the server wait for it to read.
  void chargeWait(std::chrono::steady_clock::duration waited);
  void creditProgress(std::size_t bytes);

  ConnectionStream& stream_;
  const HttpSettings& settings_;
  const Poco::Net::IPAddress peerHost_;
  const std::string peerHostText_;
  const std::string peerAddressText_;
  std::string clientHost_;
  std::string clientAddress_;
  std::string requestId_;

  std::string in_;  // received bytes; those from inBegin_ on are not used yet
  std::size_t inBegin_ = 0;
  std::string headText_;  // the current head; head_'s views point into it
  RequestHead head_;

  BodyState bodyState_ = BodyState::None;
  BodyRead bodyRead_ = BodyRead::Complete;
  std::string body_;
  std::size_t bodyLimit_ = 0;
  std::uint64_t bodyLeft_ = 0;  // Content-Length bytes not read or dropped yet
  std::optional<ChunkedDecoder> chunks_;
  std::size_t dropLimit_ = kDrainLimit;
  bool continueSent_ = false;

  std::unique_ptr<RequestState> state_;
  bool keepAlive_ = true;
  bool streaming_ = false;
  bool streamChunked_ = false;
  int status_ = 0;
  std::uint64_t bodyBytesSent_ = 0;
  std::vector<std::pair<std::string, std::string>> headers_;
  std::string out_;                // the answer's head, and its body when small
  std::string outBody_;            // a larger body, kept apart so it is not copied
  std::size_t outOffset_ = 0;      // bytes of out_ then outBody_ written
  std::string interim_;            // "100 Continue", when one is due
  std::string chunk_;              // a streamed answer's bytes not framed yet
  std::size_t bodyFilled_ = 0;     // bytes of body_ read, while a Content-Length body is read
  bool largeBufferFreed_ = false;  // a buffer over a few MiB was freed: return memory at the request's end
  std::chrono::steady_clock::duration sendAllowance_;
  bool lost_ = false;  // a write failed or the client read too slowly
  bool slowReader_ = false;
};

// Answers requests whose heads passed every check. Neither may throw.
class HttpService {
 public:
  virtual ~HttpService() = default;
  // The head is in: returns how many body bytes serve() reads (0: none; a
  // body is then dropped after the answer, or the connection closes), or
  // answers at once (a refusal: serve() is then not called).
  virtual std::size_t admit(HttpExchange& exchange) noexcept = 0;
  // The body is in (bodyRead()): must answer.
  virtual void serve(HttpExchange& exchange) noexcept = 0;
};

// What a connection needs from its server beyond the socket: whether the
// server is stopping, and where to log refused requests.
struct HttpConnectionHooks {
  const std::atomic<bool>* stopping = nullptr;
  std::function<void(const app::LogLine&)> log;
};

class HttpConnection {
 public:
  using Clock = std::chrono::steady_clock;

  // Why a connection ended.
  enum class Ending {
    Closed,            // in order: the peer, keep-alive, or an answer that closes
    IdleTimeout,       // silent for ioTimeout, or keepAliveTimeout between requests
    HandshakeOverdue,  // no TLS handshake within tlsHandshakeTimeout
    RequestOverdue,    // no whole request within requestTimeout
    SlowReader,        // the answers were read slower than minSendRate allows
    WriteFailed,       // the client went away while an answer was sent
    Stopped,           // the server stops
  };

  // What the connection waits for next: its socket (until `deadline`), or
  // nothing: it ended.
  struct Next {
    std::optional<Ending> ending;  // set: it ended
    bool readable = true;          // else writable
    Clock::time_point deadline;
    bool idle = false;  // between requests: a stopping server ends the wait
  };

  // Why advance() runs.
  enum class Wake { Start, Ready, Expired, Stopping };

  // `stream` is the accepted connection from `peer`; `settings`, `service`
  // and `hooks` outlive it.
  HttpConnection(std::unique_ptr<ConnectionStream> stream, const Poco::Net::IPAddress& peerHost,
                 std::string peerAddress, const HttpSettings& settings, HttpService& service,
                 const HttpConnectionHooks& hooks);
  ~HttpConnection();

  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // Runs until the connection waits for its peer or ends.
  Next advance(Wake wake);

  const std::string& peerAddress() const { return peerAddress_; }
  ConnectionStream& stream() { return *stream_; }

 private:
  enum class Phase { Handshake, Head, Body, Answer, DropBody, Linger };

  Next wait(IoStatus status, Clock::time_point deadline, bool idle = false);
  Next end(Ending ending);
  // A deadline passed: the end, or (a body cut by silence) its answer.
  std::optional<Next> expire(Clock::time_point now);
  // Each returns the wait or the end when the phase cannot go on now, or
  // nullopt when it moved to the next phase.
  std::optional<Next> handshake(Clock::time_point now);
  std::optional<Next> readHead(Clock::time_point now);
  std::optional<Next> readBody(Clock::time_point now);
  std::optional<Next> writeAnswer(Clock::time_point now);
  std::optional<Next> dropBody(Clock::time_point now);
  // How far a body got: how it ended, or the wait for more of it.
  struct BodyProgress {
    std::optional<BodyRead> ended;
    std::optional<Next> wait;
  };
  // Reads the request's body as far as the client has sent it, its bytes
  // kept in `keep` or dropped (nullptr), `limit` bytes at most when chunked.
  // The one body loop: readBody keeps a body for the service, dropBody
  // throws away one the answer did not need.
  BodyProgress pumpBody(Clock::time_point now, std::string* keep, std::size_t limit);
  // Reads bytes of a Content-Length body into `body`, grown as they arrive.
  IoResult receiveKeptBytes(std::string& body);
  std::optional<Next> linger(Clock::time_point now);
  // A head refused by the scanner or the parser: answered, then closed.
  void refuse(const HeadError& error);
  // After the head: admission and the body's plan.
  void admit(Clock::time_point now);
  void serve();
  // The answer is out: the next request, the body left to drop, or the close.
  void answerDone(Clock::time_point now);
  void readyForRequest(Clock::time_point now);
  // The deadline of a wait for request bytes: the request's, or the end of
  // the allowed silence.
  Clock::time_point receiveDeadline() const;

  std::unique_ptr<ConnectionStream> stream_;
  const std::string peerAddress_;
  const HttpSettings& settings_;
  HttpService& service_;
  const HttpConnectionHooks& hooks_;
  HttpExchange exchange_;
  HeadScanner scanner_;
  Phase phase_;
  int served_ = 0;
  bool requestBegun_ = false;  // a byte of the current request arrived
  Clock::time_point handshakeDeadline_;
  Clock::time_point requestDeadline_;
  Clock::time_point keepAliveDeadline_;
  Clock::time_point lastReceived_;
  Clock::time_point waitingSince_;  // when the answer's wait for the reader began
  Clock::time_point lingerEnd_;
};

}  // namespace codepayload::server
