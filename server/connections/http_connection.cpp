#include "server/connections/http_connection.h"

#include <poll.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <ctime>

#include "common/ascii.h"
#include "common/error_codes.h"
#include "common/memory_release.h"
#include "common/utc_time.h"
#include "server/http/error_envelope.h"
#include "server/http/http_status.h"
#include "server/http/request_id.h"

namespace codepayload::server {

namespace {

constexpr std::size_t kReceiveBytes = 16 * 1024;
// Head and body go out in one write up to this size.
constexpr std::size_t kCoalescedAnswerBytes = 16 * 1024;
// A streamed body goes out in chunks of about this size.
constexpr std::size_t kStreamChunkBytes = 64 * 1024;
// A receive buffer that grew past this (a pipelined burst) is given back.
constexpr std::size_t kRetainedBufferBytes = 256 * 1024;
// Buffers an idle connection keeps between requests; larger ones are freed
// once the request no longer needs them.
constexpr std::size_t kRetainedIdleBytes = 64 * 1024;
// A Content-Length body's buffer starts at this size and doubles as bytes
// arrive: an announced size costs nothing until it is sent.
constexpr std::size_t kFirstBodyBytes = 16 * 1024;
// Lingering close (RFC 9112 §9.6): after the last answer, the client's late
// bytes (a body the server refused, pipelined requests) are read and dropped
// for at most this long in all, and this long between two reads, so the
// client reads the answer instead of a reset.
constexpr std::chrono::seconds kLingerTotal{5};
constexpr std::chrono::seconds kLingerQuiet{2};
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

// "Date: Mon, 23 Nov 2026 19:44:00 GMT\r\n", formatted once a second per thread.
std::string_view dateLine() {
  thread_local std::time_t formattedSecond = -1;
  thread_local std::array<char, 64> line{};
  thread_local std::size_t length = 0;
  const std::time_t now = std::time(nullptr);
  if (now != formattedSecond) {
    const std::string text = "Date: " + common::httpDate(now) + "\r\n";
    length = std::min(text.size(), line.size());
    std::copy_n(text.data(), length, line.data());
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

// Frees `buffer` when it holds more than `retained`; `large` is set when it
// was a large request's (freed memory is then worth returning).
void releaseIfOver(std::string& buffer, std::size_t retained, bool& large) {
  if (common::releaseIfOver(buffer, retained)) large = true;
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

// --- HttpExchange ------------------------------------------------------------

HttpExchange::HttpExchange(ConnectionStream& stream, const Poco::Net::IPAddress& peerHost, std::string peerAddress,
                           const HttpSettings& settings)
    : stream_(stream),
      settings_(settings),
      peerHost_(peerHost),
      peerHostText_(peerHost.toString()),
      peerAddressText_(std::move(peerAddress)),
      clientHost_(peerHostText_),
      clientAddress_(peerAddressText_),
      sendAllowance_(settings.ioTimeout) {}

void HttpExchange::identifyRequest(const TrustedProxies& proxies, ForwardedHeader forwardedHeader) {
  if (proxies.empty() || !proxies.contains(peerHost_)) return;
  // Every field line of the header the proxy writes (the head's field count
  // is bounded): the proxy's own hop is in the last one, after any number a
  // client sent. The other header is not read: the proxy passes a client's
  // copy of it through untouched.
  const std::string_view forwardedName = forwardedHeaderName(forwardedHeader);
  std::vector<std::string_view> forwarded;
  std::optional<std::string_view> requestId;  // the last one: what the proxy added
  for (const HeaderField& headerField : head_.fields) {
    if (common::equalsIgnoringAsciiCase(headerField.name, "X-Request-Id")) requestId = headerField.value;
    if (common::equalsIgnoringAsciiCase(headerField.name, forwardedName)) forwarded.push_back(headerField.value);
  }
  clientHost_ = forwardedClient(proxies, peerHost_, forwardedHeader, forwarded);
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

IoResult HttpExchange::receiveMore() {
  const std::size_t had = in_.size();
  in_.resize(had + kReceiveBytes);
  const IoResult result = stream_.read(in_.data() + had, kReceiveBytes);
  in_.resize(had + (result.status == IoStatus::Done ? result.bytes : 0));
  return result;
}

void HttpExchange::compact() {
  if (inBegin_ == in_.size()) {
    in_.clear();
  } else if (inBegin_ > 0) {
    in_.erase(0, inBegin_);
  }
  inBegin_ = 0;
  if (in_.capacity() > kRetainedBufferBytes && in_.size() < kReceiveBytes) in_.shrink_to_fit();
}

void HttpExchange::startRequest() {
  // Nothing of the previous request's head may answer for this one (a head
  // refused before it is parsed).
  head_.method = {};
  head_.contentLength.reset();
  head_.chunked = false;
  head_.expectContinue = false;
  bodyState_ = BodyState::None;
  bodyRead_ = BodyRead::Complete;
  body_.clear();
  bodyFilled_ = 0;
  bodyLimit_ = 0;
  bodyLeft_ = 0;
  chunks_.reset();
  dropLimit_ = kDrainLimit;
  continueSent_ = false;
  state_.reset();
  keepAlive_ = true;
  streaming_ = false;
  streamChunked_ = false;
  status_ = 0;
  bodyBytesSent_ = 0;
  headers_.clear();
  out_.clear();
  outBody_.clear();
  outOffset_ = 0;
  interim_.clear();
  chunk_.clear();
  clientHost_ = peerHostText_;
  clientAddress_ = peerAddressText_;
  requestId_.clear();
}

void HttpExchange::releaseLargeBuffers() {
  releaseIfOver(body_, kRetainedIdleBytes, largeBufferFreed_);
  releaseIfOver(outBody_, kRetainedIdleBytes, largeBufferFreed_);
  releaseIfOver(out_, kRetainedIdleBytes, largeBufferFreed_);
  // The engine frees its own scratch after a large batch; both go back now.
  if (largeBufferFreed_) common::returnFreedMemoryToSystem();
  largeBufferFreed_ = false;
}

bool HttpExchange::unreadBodyCanBeDropped() const {
  if (bodyState_ != BodyState::Unread) return true;
  // Without 100 Continue the client may never send the body it announced.
  if (head_.expectContinue && !continueSent_) return false;
  return head_.chunked || head_.contentLength.value_or(0) <= dropLimit_;
}

void HttpExchange::addHeader(std::string_view name, std::string_view value) {
  assert(name.find_first_of("\r\n") == std::string_view::npos && value.find_first_of("\r\n") == std::string_view::npos);
  headers_.emplace_back(name, value);
}

void HttpExchange::writeHead(int status, std::string_view contentType, std::optional<std::uint64_t> contentLength,
                             bool chunked) {
  assert(status_ == 0 && "one answer per request");
  if (!unreadBodyCanBeDropped()) keepAlive_ = false;
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
  if (stream_.isTls()) {
    out_.append("Strict-Transport-Security: ");
    out_.append(kStrictTransportSecurity);
    out_.append("\r\n");
  }
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
  } else if (withBody) {
    outBody_.assign(body);
  }
  bodyBytesSent_ = withBody ? body.size() : 0;
}

void HttpExchange::sendOwned(int status, std::string_view contentType, std::string&& body) {
  const std::size_t size = body.size();
  writeHead(status, contentType, size, false);
  const bool withBody = head_.method != "HEAD";
  if (withBody && out_.size() + size <= kCoalescedAnswerBytes) {
    out_.append(body);
  } else if (withBody) {
    outBody_ = std::move(body);
  }
  bodyBytesSent_ = withBody ? size : 0;
}

void HttpExchange::beginStream(int status, std::string_view contentType) {
  streamChunked_ = head_.version == HttpVersion::Http11;
  // HTTP/1.0 has no chunks: the close ends the body.
  if (!streamChunked_) keepAlive_ = false;
  writeHead(status, contentType, std::nullopt, streamChunked_);
  streaming_ = true;
}

void HttpExchange::streamWrite(std::string_view bytes) {
  assert(streaming_);
  if (lost_) throw ConnectionLost("the connection ended while an answer was sent");
  chunk_.append(bytes);
  bodyBytesSent_ += bytes.size();
  if (chunk_.size() < kStreamChunkBytes) return;
  if (streamChunked_) {
    appendHex(out_, chunk_.size());
    out_.append("\r\n");
    out_.append(chunk_);
    out_.append("\r\n");
  } else {
    out_.append(chunk_);
  }
  chunk_.clear();
  writeAllWaiting();
}

void HttpExchange::endStream() {
  assert(streaming_);
  if (lost_) throw ConnectionLost("the connection ended while an answer was sent");
  if (streamChunked_) {
    if (!chunk_.empty()) {
      appendHex(out_, chunk_.size());
      out_.append("\r\n");
      out_.append(chunk_);
      out_.append("\r\n");
    }
    out_.append("0\r\n\r\n");
  } else {
    out_.append(chunk_);
  }
  chunk_.clear();
  // The rest goes out as the client takes it, without a worker waiting.
  streaming_ = false;
}

void HttpExchange::chargeWait(std::chrono::steady_clock::duration waited) { sendAllowance_ -= waited; }

void HttpExchange::creditProgress(std::size_t bytes) {
  if (settings_.minSendRate == 0) {
    sendAllowance_ = settings_.ioTimeout;
    return;
  }
  const auto earned = std::chrono::nanoseconds(static_cast<std::int64_t>(bytes) * 1'000'000'000 /
                                               static_cast<std::int64_t>(settings_.minSendRate));
  sendAllowance_ = std::min<std::chrono::steady_clock::duration>(sendAllowance_ + earned, settings_.ioTimeout);
}

IoResult HttpExchange::writePending() {
  while (!interim_.empty()) {
    const IoResult result = stream_.write(interim_);
    if (result.status != IoStatus::Done) {
      if (result.status == IoStatus::Failed) lost_ = true;
      return result;
    }
    interim_.erase(0, result.bytes);
    if (interim_.empty()) continueSent_ = true;
  }
  while (outputPending()) {
    const std::string_view rest = outOffset_ < out_.size()
                                      ? std::string_view(out_).substr(outOffset_)
                                      : std::string_view(outBody_).substr(outOffset_ - out_.size());
    const IoResult result = stream_.write(rest);
    if (result.status != IoStatus::Done) {
      if (result.status == IoStatus::Failed) lost_ = true;
      return result;
    }
    outOffset_ += result.bytes;
    creditProgress(result.bytes);
  }
  out_.clear();
  outBody_.clear();
  outOffset_ = 0;
  return {IoStatus::Done, 0};
}

void HttpExchange::writeAllWaiting() {
  while (true) {
    const IoResult result = writePending();
    if (result.status == IoStatus::Done) return;
    if (result.status != IoStatus::WantRead && result.status != IoStatus::WantWrite) {
      lost_ = true;
      throw ConnectionLost("the connection ended while an answer was sent");
    }
    pollfd watched{stream_.fd(), static_cast<short>(result.status == IoStatus::WantRead ? POLLIN : POLLOUT), 0};
    const auto started = std::chrono::steady_clock::now();
    const auto allowed = std::chrono::ceil<std::chrono::milliseconds>(sendAllowance_).count();
    int ready = 0;
    do {
      ready = ::poll(&watched, 1, static_cast<int>(std::max<std::chrono::milliseconds::rep>(allowed, 0)));
    } while (ready < 0 && errno == EINTR);
    chargeWait(std::chrono::steady_clock::now() - started);
    if (ready <= 0 || sendAllowance_ <= std::chrono::steady_clock::duration::zero()) {
      lost_ = true;
      slowReader_ = ready == 0;
      throw ConnectionLost("the client did not read the answer in time");
    }
  }
}

// --- HttpConnection ----------------------------------------------------------

HttpConnection::HttpConnection(std::unique_ptr<ConnectionStream> stream, const Poco::Net::IPAddress& peerHost,
                               std::string peerAddress, const HttpSettings& settings, HttpService& service,
                               const HttpConnectionHooks& hooks)
    : stream_(std::move(stream)),
      peerAddress_(peerAddress),
      settings_(settings),
      service_(service),
      hooks_(hooks),
      exchange_(*stream_, peerHost, std::move(peerAddress), settings),
      scanner_(settings.head),
      phase_(Phase::Handshake) {
  const Clock::time_point now = Clock::now();
  handshakeDeadline_ = now + settings_.tlsHandshakeTimeout;
  if (!stream_->isTls()) readyForRequest(now);
}

HttpConnection::~HttpConnection() { exchange_.releaseLargeBuffers(); }

void HttpConnection::readyForRequest(Clock::time_point now) {
  phase_ = Phase::Head;
  requestDeadline_ = now + settings_.requestTimeout;
  keepAliveDeadline_ = now + settings_.keepAliveTimeout;
  lastReceived_ = now;
  requestBegun_ = false;
  exchange_.compact();
  exchange_.startRequest();
  scanner_.reset();
}

HttpConnection::Clock::time_point HttpConnection::receiveDeadline() const {
  return std::min(requestDeadline_, lastReceived_ + settings_.ioTimeout);
}

HttpConnection::Next HttpConnection::wait(IoStatus status, Clock::time_point deadline, bool idle) {
  Next next;
  next.readable = status != IoStatus::WantWrite;
  next.deadline = deadline;
  next.idle = idle;
  return next;
}

HttpConnection::Next HttpConnection::end(Ending ending) {
  if (RequestState* const state = exchange_.state_.get(); state != nullptr && exchange_.answered()) {
    state->finished(exchange_, false);
  }
  exchange_.state_.reset();
  Next next;
  next.ending = ending;
  return next;
}

std::optional<HttpConnection::Next> HttpConnection::expire(Clock::time_point now) {
  switch (phase_) {
    case Phase::Handshake: return end(Ending::HandshakeOverdue);
    case Phase::Head:
      if (!requestBegun_ && served_ > 0) return end(Ending::IdleTimeout);
      return end(now >= requestDeadline_ ? Ending::RequestOverdue : Ending::IdleTimeout);
    case Phase::Body:
      if (now >= requestDeadline_) return end(Ending::RequestOverdue);
      // Silent for ioTimeout within its body: the request is answered as cut
      // short, and the connection closes.
      exchange_.bodyRead_ = BodyRead::Incomplete;
      exchange_.bodyState_ = HttpExchange::BodyState::None;
      exchange_.keepAlive_ = false;
      exchange_.interim_.clear();
      if (!exchange_.chunks_) exchange_.body_.resize(exchange_.bodyFilled_);
      serve();
      return std::nullopt;
    case Phase::DropBody: return end(now >= requestDeadline_ ? Ending::RequestOverdue : Ending::IdleTimeout);
    case Phase::Answer: exchange_.chargeWait(now - waitingSince_); return end(Ending::SlowReader);
    case Phase::Linger: break;
  }
  return end(Ending::Closed);
}

HttpConnection::Next HttpConnection::advance(Wake wake) {
  switch (wake) {
    case Wake::Stopping: return end(phase_ == Phase::Head && !requestBegun_ ? Ending::Closed : Ending::Stopped);
    case Wake::Expired:
      if (std::optional<Next> next = expire(Clock::now())) return *next;
      break;
    case Wake::Ready:
      if (phase_ == Phase::Answer) exchange_.chargeWait(Clock::now() - waitingSince_);
      break;
    case Wake::Start: break;
  }
  while (true) {
    const Clock::time_point now = Clock::now();
    std::optional<Next> next;
    switch (phase_) {
      case Phase::Handshake: next = handshake(now); break;
      case Phase::Head: next = readHead(now); break;
      case Phase::Body: next = readBody(now); break;
      case Phase::Answer: next = writeAnswer(now); break;
      case Phase::DropBody: next = dropBody(now); break;
      case Phase::Linger: next = linger(now); break;
    }
    if (next) return *next;
  }
}

std::optional<HttpConnection::Next> HttpConnection::handshake(Clock::time_point now) {
  const IoResult result = stream_->handshake();
  switch (result.status) {
    case IoStatus::Done: readyForRequest(now); return std::nullopt;
    case IoStatus::WantRead:
    case IoStatus::WantWrite: return wait(result.status, handshakeDeadline_);
    case IoStatus::Ended:
    case IoStatus::Failed: break;
  }
  return end(Ending::Closed);
}

std::optional<HttpConnection::Next> HttpConnection::readHead(Clock::time_point now) {
  const bool stopping = hooks_.stopping != nullptr && hooks_.stopping->load();
  if (!exchange_.pending().empty()) requestBegun_ = true;
  if (!requestBegun_ && stopping && !stream_->hasBufferedBytes()) return end(Ending::Closed);
  HeadScanner::State state = scanner_.scan(exchange_.pending());
  while (state == HeadScanner::State::NeedMore) {
    const IoResult result = exchange_.receiveMore();
    if (result.status == IoStatus::Done) {
      requestBegun_ = true;
      lastReceived_ = Clock::now();
      state = scanner_.scan(exchange_.pending());
      continue;
    }
    if (result.status == IoStatus::WantRead || result.status == IoStatus::WantWrite) {
      const bool idle = !requestBegun_ && served_ > 0;
      return wait(result.status, idle ? std::min(keepAliveDeadline_, requestDeadline_) : receiveDeadline(), idle);
    }
    return end(Ending::Closed);
  }
  if (state == HeadScanner::State::Refused) {
    refuse(scanner_.error());
    return std::nullopt;
  }
  exchange_.headText_.assign(scanner_.head(exchange_.pending()));
  exchange_.consume(scanner_.consumed());
  if (const auto error = parseRequestHead(exchange_.headText_, settings_.head, exchange_.head_)) {
    refuse(*error);
    return std::nullopt;
  }
  exchange_.identifyRequest(settings_.trustedProxies, settings_.forwardedHeader);
  if (exchange_.requestId_.empty()) exchange_.requestId_ = generateRequestId();
  const bool last = settings_.maxKeepAliveRequests != 0 && served_ + 1 == settings_.maxKeepAliveRequests;
  if (!exchange_.head_.keepAlive || last || stopping) exchange_.closeAfterAnswer();
  admit(now);
  return std::nullopt;
}

void HttpConnection::refuse(const HeadError& error) {
  // Its framing, if any was read, is not to be trusted: nothing after the
  // head is read as a body or as a next request.
  exchange_.requestId_ = generateRequestId();
  if (hooks_.log) {
    hooks_.log({app::LogLevel::Info,
                "refused a request from " + exchange_.clientAddress() + ": " + std::to_string(error.status) + " " +
                    std::string(error.code) + ": " + error.message,
                exchange_.requestId()});
  }
  exchange_.closeAfterAnswer();
  exchange_.addHeader("X-Content-Type-Options", "nosniff");
  exchange_.send(error.status, "application/json", errorEnvelope(error.code, std::nullopt, error.message));
  phase_ = Phase::Answer;
}

void HttpConnection::admit(Clock::time_point now) {
  HttpExchange& exchange = exchange_;
  const RequestHead& head = exchange.head_;
  const bool hasBody = head.chunked || head.contentLength.value_or(0) > 0;
  if (hasBody) exchange.bodyState_ = HttpExchange::BodyState::Unread;
  const std::size_t limit = service_.admit(exchange);
  if (exchange.answered()) {
    phase_ = Phase::Answer;
    return;
  }
  exchange.bodyLimit_ = limit;
  if (!head.chunked && !head.contentLength && limit > 0 && isBodyMethod(head.method)) {
    exchange.bodyRead_ = BodyRead::LengthRequired;
    exchange.keepAlive_ = false;
  } else if (hasBody && limit > 0) {
    if (head.contentLength && *head.contentLength > limit) {
      // Not read: dropped after the answer when small, else the connection closes.
      exchange.bodyRead_ = BodyRead::TooLarge;
    } else {
      exchange.bodyState_ = HttpExchange::BodyState::Reading;
      if (head.contentLength) {
        exchange.bodyLeft_ = *head.contentLength;
        // Address space only: the pages are written, and so become
        // resident, as the bytes arrive (the buffer grows by doubling).
        exchange.body_.reserve(static_cast<std::size_t>(*head.contentLength));
      } else {
        exchange.chunks_.emplace();
      }
      if (head.expectContinue) exchange.interim_ = kContinue;
      lastReceived_ = now;
      phase_ = Phase::Body;
      return;
    }
  }
  serve();
}

std::optional<HttpConnection::Next> HttpConnection::readBody(Clock::time_point now) {
  HttpExchange& exchange = exchange_;
  if (!exchange.interim_.empty()) {
    const IoResult result = exchange.writePending();
    if (result.status == IoStatus::WantRead || result.status == IoStatus::WantWrite) {
      return wait(result.status, receiveDeadline());
    }
    if (result.status != IoStatus::Done) return end(Ending::Closed);
  }
  const BodyProgress progress = pumpBody(now, &exchange.body_, exchange.bodyLimit_);
  if (!progress.ended) return progress.wait;
  exchange.bodyRead_ = *progress.ended;
  exchange.bodyState_ = HttpExchange::BodyState::None;
  if (*progress.ended != BodyRead::Complete) exchange.keepAlive_ = false;
  serve();
  return std::nullopt;
}

HttpConnection::BodyProgress HttpConnection::pumpBody(Clock::time_point now, std::string* keep, std::size_t limit) {
  HttpExchange& exchange = exchange_;
  while (true) {
    IoResult result{IoStatus::Done, 0};
    if (exchange.chunks_) {
      exchange.consume(exchange.chunks_->feed(exchange.pending(), keep, limit));
      switch (exchange.chunks_->state()) {
        case ChunkedDecoder::State::Complete: return {BodyRead::Complete, std::nullopt};
        case ChunkedDecoder::State::Malformed: return {BodyRead::Malformed, std::nullopt};
        case ChunkedDecoder::State::TooLarge: return {BodyRead::TooLarge, std::nullopt};
        case ChunkedDecoder::State::NeedMore: break;
      }
      exchange.compact();
      result = exchange.receiveMore();
    } else if (exchange.bodyLeft_ == 0) {
      if (keep != nullptr) keep->resize(exchange.bodyFilled_);
      return {BodyRead::Complete, std::nullopt};
    } else if (keep != nullptr) {
      result = receiveKeptBytes(*keep);
    } else {
      const std::size_t take =
          static_cast<std::size_t>(std::min<std::uint64_t>(exchange.bodyLeft_, exchange.pending().size()));
      exchange.consume(take);
      exchange.bodyLeft_ -= take;
      if (take > 0) continue;
      exchange.compact();
      result = exchange.receiveMore();
    }
    if (result.status == IoStatus::Done) {
      lastReceived_ = now;
      continue;
    }
    if (result.status == IoStatus::WantRead || result.status == IoStatus::WantWrite) {
      return {std::nullopt, wait(result.status, receiveDeadline())};
    }
    if (keep != nullptr && !exchange.chunks_) keep->resize(exchange.bodyFilled_);
    return {BodyRead::Incomplete, std::nullopt};
  }
}

IoResult HttpConnection::receiveKeptBytes(std::string& body) {
  HttpExchange& exchange = exchange_;
  if (exchange.bodyFilled_ == body.size()) {
    // Grown as bytes arrive: never more than twice what came.
    const std::uint64_t wanted = exchange.bodyFilled_ + exchange.bodyLeft_;
    body.resize(static_cast<std::size_t>(
        std::min<std::uint64_t>(wanted, std::max<std::size_t>(kFirstBodyBytes, 2 * exchange.bodyFilled_))));
  }
  const std::size_t room =
      std::min<std::size_t>(body.size() - exchange.bodyFilled_, static_cast<std::size_t>(exchange.bodyLeft_));
  const std::string_view early = exchange.pending().substr(0, room);
  IoResult result{IoStatus::Done, early.size()};
  if (!early.empty()) {
    std::copy(early.begin(), early.end(), body.begin() + static_cast<std::ptrdiff_t>(exchange.bodyFilled_));
    exchange.consume(early.size());
  } else {
    result = stream_->read(body.data() + exchange.bodyFilled_, room);
  }
  if (result.status == IoStatus::Done) {
    exchange.bodyFilled_ += result.bytes;
    exchange.bodyLeft_ -= result.bytes;
  }
  return result;
}

void HttpConnection::serve() {
  service_.serve(exchange_);
  // The answer is made: a large body need not wait with it for a slow reader.
  releaseIfOver(exchange_.body_, kRetainedIdleBytes, exchange_.largeBufferFreed_);
  if (!exchange_.answered()) {
    // The service broke its contract: a plain 500, and the connection ends.
    exchange_.closeAfterAnswer();
    exchange_.send(500, "application/json",
                   errorEnvelope(error_code::kServerError, std::nullopt,
                                 "The server could not handle this request; it is safe to retry."));
  }
  phase_ = Phase::Answer;
}

std::optional<HttpConnection::Next> HttpConnection::writeAnswer(Clock::time_point now) {
  if (exchange_.lost_) return end(exchange_.slowReader_ ? Ending::SlowReader : Ending::WriteFailed);
  // A streamed answer cut short is never ended: the connection closes
  // without its last chunk, so the cut body cannot look complete.
  if (exchange_.streaming_) return end(Ending::Closed);
  const IoResult result = exchange_.writePending();
  switch (result.status) {
    case IoStatus::Done: answerDone(now); return std::nullopt;
    case IoStatus::WantRead:
    case IoStatus::WantWrite:
      waitingSince_ = Clock::now();
      return wait(result.status, waitingSince_ + std::max(exchange_.sendAllowance_, Clock::duration::zero()));
    case IoStatus::Ended:
    case IoStatus::Failed: break;
  }
  return end(Ending::WriteFailed);
}

void HttpConnection::answerDone(Clock::time_point now) {
  ++served_;
  if (RequestState* const state = exchange_.state_.get()) state->finished(exchange_, true);
  exchange_.state_.reset();
  exchange_.releaseLargeBuffers();
  if (exchange_.bodyState_ == HttpExchange::BodyState::Unread && exchange_.keepAlive_) {
    // Read and dropped, so the next request starts where it should.
    if (exchange_.head_.chunked) {
      exchange_.chunks_.emplace();
    } else {
      exchange_.bodyLeft_ = exchange_.head_.contentLength.value_or(0);
    }
    phase_ = Phase::DropBody;
    return;
  }
  if (exchange_.keepAlive_) {
    readyForRequest(now);
    return;
  }
  phase_ = Phase::Linger;
}

std::optional<HttpConnection::Next> HttpConnection::dropBody(Clock::time_point now) {
  const BodyProgress progress = pumpBody(now, nullptr, exchange_.dropLimit_);
  if (!progress.ended) return progress.wait;
  switch (*progress.ended) {
    case BodyRead::Complete: readyForRequest(now); return std::nullopt;
    case BodyRead::Incomplete: return end(Ending::Closed);
    case BodyRead::LengthRequired:
    case BodyRead::TooLarge:
    case BodyRead::Malformed: break;
  }
  phase_ = Phase::Linger;
  return std::nullopt;
}

std::optional<HttpConnection::Next> HttpConnection::linger(Clock::time_point now) {
  if (lingerEnd_ == Clock::time_point()) {
    stream_->endWriting();
    lingerEnd_ = now + kLingerTotal;
  }
  while (true) {
    const IoResult result = stream_->discard();
    if (result.status == IoStatus::WantRead)
      return wait(result.status, std::min(lingerEnd_, Clock::now() + kLingerQuiet));
    if (result.status != IoStatus::Done || Clock::now() >= lingerEnd_) return end(Ending::Closed);
  }
}

}  // namespace codepayload::server
