#include "server/http_connection.h"

#include <Poco/Exception.h>
#include <Poco/Net/Socket.h>
#include <Poco/Timespan.h>

#include <poll.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <ctime>

#include "common/ascii.h"
#include "server/http_status.h"
#include "server/json_text.h"
#include "server/request_deadlines.h"
#include "server/request_id.h"

namespace codepayload::server {

namespace {

constexpr std::size_t kReceiveBytes = 16 * 1024;
// Head and body go out in one write up to this size.
constexpr std::size_t kCoalescedAnswerBytes = 16 * 1024;
// A streamed body goes out in chunks of about this size.
constexpr std::size_t kStreamChunkBytes = 64 * 1024;
// A receive buffer that grew past this (a pipelined burst) is given back.
constexpr std::size_t kRetainedBufferBytes = 256 * 1024;

// "Date: Mon, 23 Nov 2026 19:44:00 GMT\r\n", formatted once a second per thread.
std::string_view dateLine() {
  thread_local std::time_t formattedSecond = -1;
  thread_local std::array<char, 64> line{};
  thread_local std::size_t length = 0;
  const std::time_t now = std::time(nullptr);
  if (now != formattedSecond) {
    std::tm utc{};
    gmtime_r(&now, &utc);
    length = std::strftime(line.data(), line.size(), "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &utc);
    formattedSecond = now;
  }
  return {line.data(), length};
}

bool isBodyMethod(std::string_view method) { return method == "POST" || method == "PUT" || method == "PATCH"; }

void appendHex(std::string& out, std::size_t value) {
  std::array<char, 2 * sizeof(std::size_t)> digits{};
  std::size_t count = 0;
  do {
    digits[count++] = "0123456789abcdef"[value & 0xf];
    value >>= 4;
  } while (value != 0);
  while (count > 0) out.push_back(digits[--count]);
}

}  // namespace

std::string_view requestPath(std::string_view target) {
  if (!target.starts_with('/')) {
    const auto scheme = target.find("://");
    if (scheme == std::string_view::npos) return {};
    const auto pathStart = target.find('/', scheme + 3);
    if (pathStart == std::string_view::npos) return "/";
    target = target.substr(pathStart);
  }
  const auto end = target.find_first_of("?#");
  return end == std::string_view::npos ? target : target.substr(0, end);
}

HttpExchange::HttpExchange(Poco::Net::StreamSocket& socket, const Poco::Net::SocketAddress& peer)
    : socket_(socket),
      peerHost_(peer.host()),
      peerHostText_(peer.host().toString()),
      peerAddressText_(peer.toString()),
      clientHost_(peerHostText_),
      clientAddress_(peerAddressText_) {}

void HttpExchange::identifyRequest(const TrustedProxies& proxies) {
  if (proxies.empty() || !proxies.contains(peerHost_)) return;
  // Every field line (the head's field count is bounded): the proxy's own hop
  // is in the last one, after any number a client sent.
  std::vector<std::string_view> forwarded;
  std::vector<std::string_view> xForwardedFor;
  std::optional<std::string_view> requestId;  // the last one: what the proxy added
  for (const HeaderField& headerField : head_.fields) {
    if (common::equalsIgnoringAsciiCase(headerField.name, "X-Request-Id")) requestId = headerField.value;
    if (common::equalsIgnoringAsciiCase(headerField.name, "Forwarded")) forwarded.push_back(headerField.value);
    if (common::equalsIgnoringAsciiCase(headerField.name, "X-Forwarded-For"))
      xForwardedFor.push_back(headerField.value);
  }
  clientHost_ = forwardedClient(proxies, peerHost_, forwarded, xForwardedFor);
  clientAddress_ = clientHost_;
  if (requestId && acceptableRequestId(*requestId)) requestId_ = std::string(*requestId);
}

std::size_t HttpExchange::fieldValues(std::string_view name, std::span<std::string_view> out) const {
  std::size_t count = 0;
  for (const HeaderField& field : head_.fields) {
    if (count == out.size()) break;
    if (common::equalsIgnoringAsciiCase(field.name, name)) out[count++] = field.value;
  }
  return count;
}

std::optional<std::string_view> HttpExchange::field(std::string_view name) const {
  for (const HeaderField& field : head_.fields) {
    if (common::equalsIgnoringAsciiCase(field.name, name)) return field.value;
  }
  return std::nullopt;
}

HttpExchange::Received HttpExchange::receiveMore() {
  if (socketFailed_) return Received::Closed;
  const std::size_t had = buffer_.size();
  buffer_.resize(had + kReceiveBytes);
  int got = 0;
  try {
    got = socket_.receiveBytes(buffer_.data() + had, static_cast<int>(kReceiveBytes));
  } catch (const Poco::Exception&) {
    got = -1;  // a timeout, a reset or a TLS failure
  }
  buffer_.resize(had + static_cast<std::size_t>(std::max(got, 0)));
  if (got <= 0) {
    socketFailed_ = true;
    return Received::Closed;
  }
  return Received::Bytes;
}

void HttpExchange::sendAll(std::string_view bytes) {
  while (!bytes.empty()) {
    const int sent = socket_.sendBytes(bytes.data(), static_cast<int>(std::min<std::size_t>(bytes.size(), 1 << 30)));
    if (sent <= 0) {
      socketFailed_ = true;
      throw Poco::IOException("the connection closed while an answer was sent");
    }
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
}

void HttpExchange::compact() {
  if (begin_ == buffer_.size()) {
    buffer_.clear();
  } else if (begin_ > 0) {
    buffer_.erase(0, begin_);
  }
  begin_ = 0;
  if (buffer_.capacity() > kRetainedBufferBytes && buffer_.size() < kReceiveBytes) buffer_.shrink_to_fit();
}

void HttpExchange::startRequest() {
  // Nothing of the previous request's head may answer for this one (a head
  // refused before it is parsed).
  head_.method = {};
  head_.contentLength.reset();
  head_.chunked = false;
  head_.expectContinue = false;
  bodyRead_ = false;
  continueSent_ = false;
  keepAlive_ = true;
  streaming_ = false;
  streamChunked_ = false;
  status_ = 0;
  bodyBytesSent_ = 0;
  headers_.clear();
  clientHost_ = peerHostText_;
  clientAddress_ = peerAddressText_;
  requestId_.clear();
}

BodyRead HttpExchange::readBody(std::size_t limit, std::string& out) {
  out.clear();
  assert(!bodyRead_ && "the body is read once");
  bodyRead_ = true;
  const auto finish = [this](BodyRead result) {
    if (result != BodyRead::Complete) keepAlive_ = false;
    markRequestReceived();
    return result;
  };
  if (!head_.chunked && !head_.contentLength) {
    return finish(isBodyMethod(head_.method) ? BodyRead::LengthRequired : BodyRead::Complete);
  }
  if (head_.contentLength && *head_.contentLength > limit) {
    // Not read: the answer drains it when small (the client can then read
    // the answer), else closes the connection.
    bodyRead_ = false;
    return BodyRead::TooLarge;
  }
  if (head_.expectContinue) {
    sendAll("HTTP/1.1 100 Continue\r\n\r\n");
    continueSent_ = true;
  }
  if (head_.contentLength) {
    const auto length = static_cast<std::size_t>(*head_.contentLength);
    const std::size_t fromBuffer = std::min(length, pending().size());
    out.resize(length);
    std::copy_n(pending().data(), fromBuffer, out.data());
    consume(fromBuffer);
    std::size_t have = fromBuffer;
    while (have < length) {
      int got = 0;
      try {
        got = socket_.receiveBytes(out.data() + have, static_cast<int>(std::min<std::size_t>(length - have, 1 << 20)));
      } catch (const Poco::Exception&) {
        got = -1;
      }
      if (got <= 0) {
        socketFailed_ = true;
        out.resize(have);
        return finish(BodyRead::Incomplete);
      }
      have += static_cast<std::size_t>(got);
    }
    return finish(BodyRead::Complete);
  }
  ChunkedDecoder decoder;
  while (true) {
    consume(decoder.feed(pending(), &out, limit));
    switch (decoder.state()) {
      case ChunkedDecoder::State::Complete: return finish(BodyRead::Complete);
      case ChunkedDecoder::State::Malformed: return finish(BodyRead::Malformed);
      case ChunkedDecoder::State::TooLarge: return finish(BodyRead::TooLarge);
      case ChunkedDecoder::State::NeedMore: break;
    }
    compact();
    if (receiveMore() == Received::Closed) return finish(BodyRead::Incomplete);
  }
}

bool HttpExchange::discardBody(std::size_t limit) {
  bodyRead_ = true;
  const bool dropped = drainBody(limit);
  if (!dropped) keepAlive_ = false;
  markRequestReceived();
  return dropped;
}

bool HttpExchange::drainBody(std::size_t limit) {
  if (!head_.chunked && !head_.contentLength) return true;
  // Without 100 Continue the client may never send the body it announced.
  if (head_.expectContinue) return false;
  if (head_.contentLength) {
    if (*head_.contentLength > limit) return false;
    std::size_t left = static_cast<std::size_t>(*head_.contentLength);
    while (true) {
      const std::size_t take = std::min(left, pending().size());
      consume(take);
      left -= take;
      if (left == 0) return true;
      compact();
      if (receiveMore() == Received::Closed) return false;
    }
  }
  ChunkedDecoder decoder;
  while (true) {
    consume(decoder.feed(pending(), nullptr, limit));
    if (decoder.state() == ChunkedDecoder::State::Complete) return true;
    if (decoder.state() != ChunkedDecoder::State::NeedMore) return false;
    compact();
    if (receiveMore() == Received::Closed) return false;
  }
}

void HttpExchange::settleUnreadBody() {
  if (!bodyRead_) discardBody(kDrainLimit);
}

void HttpExchange::addHeader(std::string_view name, std::string_view value) {
  assert(name.find_first_of("\r\n") == std::string_view::npos && value.find_first_of("\r\n") == std::string_view::npos);
  headers_.emplace_back(name, value);
}

void HttpExchange::writeHead(int status, std::string_view contentType, std::optional<std::uint64_t> contentLength,
                             bool chunked) {
  assert(status_ == 0 && "one answer per request");
  settleUnreadBody();
  status_ = status;
  out_.clear();
  out_.append("HTTP/1.1 ");
  out_.append(std::to_string(status));
  out_.push_back(' ');
  out_.append(reasonPhrase(status));
  out_.append("\r\n");
  if (requestId_.empty()) requestId_ = generateRequestId();
  out_.append("X-Request-Id: ");
  out_.append(requestId_);
  out_.append("\r\n");
  for (const auto& [name, value] : headers_) {
    out_.append(name);
    out_.append(": ");
    out_.append(value);
    out_.append("\r\n");
  }
  if (!contentType.empty()) {
    out_.append("Content-Type: ");
    out_.append(contentType);
    out_.append("\r\n");
  }
  // 204 has no body and no Content-Length (RFC 9110 §8.6).
  if (contentLength && status != 204) {
    out_.append("Content-Length: ");
    out_.append(std::to_string(*contentLength));
    out_.append("\r\n");
  }
  if (chunked) out_.append("Transfer-Encoding: chunked\r\n");
  out_.append(dateLine());
  out_.append(keepAlive_ ? "Connection: Keep-Alive\r\n\r\n" : "Connection: Close\r\n\r\n");
}

void HttpExchange::send(int status, std::string_view contentType, std::string_view body) {
  writeHead(status, contentType, body.size(), false);
  const bool withBody = head_.method != "HEAD";
  if (withBody && out_.size() + body.size() <= kCoalescedAnswerBytes) {
    out_.append(body);
    sendAll(out_);
  } else {
    sendAll(out_);
    if (withBody) sendAll(body);
  }
  bodyBytesSent_ = withBody ? body.size() : 0;
}

void HttpExchange::beginStream(int status, std::string_view contentType) {
  streamChunked_ = head_.version == HttpVersion::Http11;
  // HTTP/1.0 has no chunks: the close ends the body.
  if (!streamChunked_) keepAlive_ = false;
  writeHead(status, contentType, std::nullopt, streamChunked_);
  sendAll(out_);
  out_.clear();
  streaming_ = true;
}

void HttpExchange::streamWrite(std::string_view bytes) {
  assert(streaming_);
  out_.append(bytes);
  bodyBytesSent_ += bytes.size();
  if (out_.size() < kStreamChunkBytes) return;
  std::string frame;
  if (streamChunked_) {
    appendHex(frame, out_.size());
    frame.append("\r\n");
    sendAll(frame);
    out_.append("\r\n");
  }
  sendAll(out_);
  out_.clear();
}

void HttpExchange::endStream() {
  assert(streaming_);
  std::string last;
  if (streamChunked_ && !out_.empty()) {
    appendHex(last, out_.size());
    last.append("\r\n");
    last.append(out_);
    last.append("\r\n");
  } else {
    last = out_;
  }
  if (streamChunked_) last.append("0\r\n\r\n");
  sendAll(last);
  out_.clear();
  streaming_ = false;
}

namespace {

// Waits at most `timeout` for the client's next bytes; true when the socket
// has something to read (bytes, the end of the stream or an error, which the
// read then reports), false on the timeout or a failed wait. poll(2) on the
// one descriptor: Poco's Socket::poll creates, fills and closes an epoll
// instance per call (Poco 1.11), three more system calls a request and the
// teardown of a file (docs/performance.md section 12).
bool waitUntilReadable(Poco::Net::StreamSocket& socket, std::chrono::seconds timeout) {
  pollfd watched{socket.impl()->sockfd(), POLLIN, 0};
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    const int ready = ::poll(&watched, 1, static_cast<int>(std::max<std::chrono::milliseconds::rep>(left.count(), 0)));
    if (ready >= 0) return ready > 0;
    if (errno != EINTR) return false;
  }
}

// Answers a request refused before it reached the service: an ErrorEnvelope,
// and the connection closes.
// Nothing after the refused head is read: the connection closes.
void refuse(HttpExchange& exchange, const HeadError& error, const HttpConnectionHooks& hooks) {
  if (hooks.log) {
    hooks.log({app::LogLevel::Info,
               "refused a request from " + exchange.clientAddress() + ": " + std::to_string(error.status) + " " +
                   std::string(error.code) + ": " + error.message,
               exchange.requestId()});
  }
  exchange.closeAfterAnswer();
  exchange.addHeader("X-Content-Type-Options", "nosniff");
  exchange.send(error.status, "application/json", errorEnvelope(error.code, std::nullopt, error.message));
}

}  // namespace

void serveHttpConnection(Poco::Net::StreamSocket& socket, const Poco::Net::SocketAddress& peer,
                         const HttpSettings& settings, HttpService& service, const HttpConnectionHooks& hooks) {
  const Poco::Timespan ioTimeout(static_cast<long>(settings.ioTimeout.count()), 0);
  socket.setReceiveTimeout(ioTimeout);
  socket.setSendTimeout(ioTimeout);
  socket.setNoDelay(true);
  HttpExchange exchange(socket, peer);
  HeadScanner scanner(settings.head);
  try {
    for (int served = 0; settings.maxKeepAliveRequests == 0 || served < settings.maxKeepAliveRequests; ++served) {
      exchange.compact();
      if (served > 0 && exchange.pending().empty() && socket.available() == 0) {
        if (hooks.stopping != nullptr && hooks.stopping->load()) return;
        if (!waitUntilReadable(socket, settings.keepAliveTimeout)) return;
      }
      exchange.startRequest();
      scanner.reset();
      HeadScanner::State state = scanner.scan(exchange.pending());
      while (state == HeadScanner::State::NeedMore) {
        if (exchange.receiveMore() == HttpExchange::Received::Closed) return;
        markRequestStarted();
        state = scanner.scan(exchange.pending());
      }
      markRequestStarted();
      if (state == HeadScanner::State::Refused) {
        exchange.bodyRead_ = true;
        exchange.requestId_ = generateRequestId();
        refuse(exchange, scanner.error(), hooks);
        return;
      }
      exchange.headText_.assign(scanner.head(exchange.pending()));
      exchange.consume(scanner.consumed());
      if (const auto error = parseRequestHead(exchange.headText_, settings.head, exchange.head_)) {
        exchange.bodyRead_ = true;  // its framing, if any was read, is not to be trusted
        exchange.requestId_ = generateRequestId();
        refuse(exchange, *error, hooks);
        return;
      }
      exchange.identifyRequest(settings.trustedProxies);
      if (exchange.requestId_.empty()) exchange.requestId_ = generateRequestId();
      const bool last = settings.maxKeepAliveRequests != 0 && served + 1 == settings.maxKeepAliveRequests;
      if (!exchange.head_.keepAlive || last || (hooks.stopping != nullptr && hooks.stopping->load())) {
        exchange.closeAfterAnswer();
      }
      service.serve(exchange);
      if (!exchange.answered()) {
        // The service broke its contract: a plain 500, and the connection ends.
        exchange.closeAfterAnswer();
        exchange.send(500, "application/json",
                      errorEnvelope("ServerError", std::nullopt,
                                    "The server could not handle this request; it is safe to retry."));
      }
      markRequestAnswered();
      if (!exchange.keepAlive_ || exchange.streaming_ || exchange.socketFailed_) return;
    }
  } catch (const Poco::Exception&) {
    // The socket failed while an answer was written: the connection is over.
  }
}

}  // namespace codepayload::server
