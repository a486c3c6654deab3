#include "server/codes_handler.h"

#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/String.h>

#include <array>
#include <iterator>
#include <ostream>
#include <stdexcept>
#include <string>

#include "engine/output_sink.h"
#include "server/media_type.h"
#include "server/memory_release.h"
#include "server/request_body.h"
#include "server/request_deadlines.h"

namespace codepayload::server {

namespace {

// Per-thread buffers: a worker reuses its body and response memory across
// requests instead of allocating both every time. A buffer that grew past
// this after a huge batch is released.
constexpr std::size_t kRetainedBufferBytes = 4 * 1024 * 1024;

void releaseIfHuge(std::string& buffer) {
  if (buffer.capacity() > kRetainedBufferBytes) std::string().swap(buffer);
}

// Every value of header `name`, at most two (two already decide "more than one").
std::size_t headerValues(const Poco::Net::HTTPServerRequest& request, const std::string& name,
                         std::array<std::string_view, 2>& values) {
  std::size_t count = 0;
  for (auto it = request.find(name); it != request.end() && count < values.size(); ++it) {
    if (Poco::icompare(it->first, name) != 0) break;
    values[count++] = it->second;
  }
  return count;
}

// The Accept value; several Accept headers are joined with ", " into
// `joined` (RFC 9110 §5.3). nullopt when absent.
std::optional<std::string_view> acceptHeader(const Poco::Net::HTTPServerRequest& request, std::string& joined) {
  const std::string name = "Accept";
  auto it = request.find(name);
  if (it == request.end()) return std::nullopt;
  auto next = std::next(it);
  if (next == request.end() || Poco::icompare(next->first, name) != 0) return std::string_view(it->second);
  joined = it->second;
  for (; next != request.end() && Poco::icompare(next->first, name) == 0; ++next) {
    joined.append(", ");
    joined.append(next->second);
  }
  return std::string_view(joined);
}

std::string_view requestErrorCode(RequestError::Kind kind) {
  switch (kind) {
    case RequestError::Kind::InvalidJson: return "InvalidJson";
    case RequestError::Kind::MissingField: return "MissingField";
    case RequestError::Kind::WrongType: return "WrongType";
    case RequestError::Kind::TooManyItems: return "TooManyItems";
  }
  return "InvalidJson";
}

// ---- Memory per request and per client (D-S3) ------------------------------
// What follows is the only Poco-specific part of streaming and of the
// per-client limit on large requests; a transport port replaces these three
// pieces: drain-and-429, the streaming sink, and the abort of a cut stream.

// A 200 response grows in `buffer` up to this size and goes out with a
// Content-Length when it ends below it; a larger one is sent chunked as the
// engine produces it, so the whole response is never held.
constexpr std::size_t kBufferedResponseBytes = 1024 * 1024;

// Reads and drops a whole body (at most `limit` bytes) without keeping it, so
// the client reads the answer instead of a reset; false when the connection
// cannot be kept (over the limit, cut, timed out).
bool dropWholeBody(Poco::Net::HTTPServerRequest& request, std::size_t limit) {
  bool complete = false;
  try {
    std::istream& in = request.stream();
    std::array<char, 16 * 1024> scratch;
    std::size_t dropped = 0;
    while (dropped <= limit) {
      in.read(scratch.data(), static_cast<std::streamsize>(scratch.size()));
      dropped += static_cast<std::size_t>(in.gcount());
      if (in.eof()) {
        complete = dropped <= limit;
        break;
      }
      if (!in) break;
    }
  } catch (const Poco::Exception&) {
    // A timeout or reset while reading: closing is the answer.
  }
  markRequestReceived();
  return complete;
}

// 429 for a large request over the client's limit: its body is read and
// dropped (never kept), then the answer says when to try again.
void refuseLargeRequest(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response,
                        std::size_t maxBodyBytes, int perClient, RequestTrace& trace) {
  if (!dropWholeBody(request, maxBodyBytes)) response.setKeepAlive(false);
  response.set("Retry-After", "1");
  sendErrorEnvelope(response, 429, "TooManyRequests", std::nullopt,
                    "This client already has as many large requests in progress as it may (" +
                        std::to_string(perClient) + "); send this one again when one of them is answered.",
                    trace);
}

// The engine's output as the 200 response: buffered while small, then
// chunked. A write that fails (the client went away) stops the engine.
class CodesResponseSink final : public OutputSink {
 public:
  CodesResponseSink(Poco::Net::HTTPServerResponse& response, std::string& buffer, std::string_view contentType)
      : response_(response), buffer_(buffer), contentType_(contentType) {
    buffer_.clear();
  }

  void write(std::string_view piece) override {
    if (stream_ == nullptr && buffer_.size() + piece.size() <= kBufferedResponseBytes) {
      buffer_.append(piece);
      return;
    }
    if (stream_ == nullptr) startChunked();
    send(piece);
  }

  // Sends what is still buffered (the whole response, when it stayed small).
  void finish(RequestTrace& trace) {
    if (stream_ == nullptr) {
      sendBody(response_, 200, "OK", contentType_, buffer_, trace);
      return;
    }
    stream_->flush();
    if (!*stream_) throw std::runtime_error("the client stopped reading the response");
    trace.responseBytes = sent_;
  }

  bool streaming() const { return stream_ != nullptr; }

 private:
  void startChunked() {
    response_.setStatusAndReason(Poco::Net::HTTPResponse::HTTP_OK, "OK");
    response_.setContentType(std::string(contentType_));
    response_.set("X-Content-Type-Options", "nosniff");
    response_.setChunkedTransferEncoding(true);
    stream_ = &response_.send();
    send(buffer_);
    buffer_.clear();
  }

  void send(std::string_view piece) {
    stream_->write(piece.data(), static_cast<std::streamsize>(piece.size()));
    if (!*stream_) throw std::runtime_error("the client stopped reading the response");
    sent_ += piece.size();
  }

  Poco::Net::HTTPServerResponse& response_;
  std::string& buffer_;
  std::string_view contentType_;
  std::ostream* stream_ = nullptr;
  std::uint64_t sent_ = 0;
};

// A chunked 200 that cannot be finished must not end with the last chunk
// (Poco writes it when the response stream closes), or the cut JSON would
// look complete: the connection is shut down first.
void abortStreamedResponse(Poco::Net::HTTPServerRequest& request) {
  auto* server = dynamic_cast<Poco::Net::HTTPServerRequestImpl*>(&request);
  if (server == nullptr) return;
  try {
    server->socket().shutdown();
  } catch (const Poco::Exception&) {
    // Already gone.
  }
}

// ---- end of the transport-specific part --------------------------------------

}  // namespace

void CodesHandler::handle(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response,
                          RequestTrace& trace) {
  std::array<std::string_view, 2> authorizations;
  const std::size_t authorizationCount = headerValues(request, "Authorization", authorizations);
  const auth::BearerOutcome outcome = context_.auth.bearerAuthenticator().authenticate(
      std::span<const std::string_view>(authorizations.data(), authorizationCount), kCodesScope);
  if (!outcome.allowed()) {
    discardUnreadBody(request, response);
    response.set("WWW-Authenticate", outcome.wwwAuthenticate);
    sendErrorEnvelope(response, outcome.status, outcome.errorCode, std::nullopt, outcome.message, trace);
    return;
  }
  trace.claims = outcome.claims;

  if (!isAcceptedJsonRequestType(request.getContentType())) {
    discardUnreadBody(request, response);
    sendErrorEnvelope(response, 415, "UnsupportedMediaType", std::nullopt,
                      "Send the body as application/vnd.codepayload.public.v1+json or application/json.", trace);
    return;
  }
  std::string joinedAccept;
  const std::optional<JsonMediaType> responseType = negotiateJsonResponseType(acceptHeader(request, joinedAccept));
  if (!responseType) {
    discardUnreadBody(request, response);
    sendErrorEnvelope(response, 406, "NotAcceptable", std::nullopt,
                      "This endpoint produces application/vnd.codepayload.public.v1+json or application/json only.",
                      trace);
    return;
  }

  const std::size_t maxBodyBytes = context_.config.maxBodyBytes;
  const BodyFraming framing = bodyFraming(request, maxBodyBytes);
  switch (framing) {
    case BodyFraming::TooLarge:
      response.setKeepAlive(false);
      sendErrorEnvelope(response, 413, "BodyTooLarge", std::nullopt,
                        "The body is larger than " + std::to_string(maxBodyBytes) + " bytes.", trace);
      return;
    case BodyFraming::LengthMissing:
      response.setKeepAlive(false);
      sendErrorEnvelope(response, 411, "LengthRequired", std::nullopt,
                        "Send a Content-Length or a chunked body.", trace);
      return;
    case BodyFraming::Ambiguous:
      response.setKeepAlive(false);
      sendErrorEnvelope(response, 400, "InvalidFraming", std::nullopt,
                        "The body length is ambiguous: send one Content-Length or chunked encoding, not both.", trace);
      return;
    case BodyFraming::Empty:
    case BodyFraming::Length:
    case BodyFraming::Chunked:
      break;
  }

  // Memory per client (D-S3): a large body (over limits.largeBodyBytes, or
  // chunked) takes one of the client's large-request slots before it is read.
  LargeRequestSlots::Slot largeSlot;
  const bool large = context_.largeRequests.isLarge(
      framing == BodyFraming::Chunked ? std::nullopt
                                      : std::optional<std::size_t>(static_cast<std::size_t>(
                                            framing == BodyFraming::Empty ? 0 : request.getContentLength64())));
  if (large) {
    largeSlot = context_.largeRequests.tryTake(outcome.claims->clientId);
    if (!largeSlot) {
      refuseLargeRequest(request, response, maxBodyBytes, context_.largeRequests.perClient(), trace);
      return;
    }
  }

  thread_local std::string body;
  thread_local std::string output;
  // Poco 1.11 ends a chunked body quietly at a malformed chunk-size line, so the
  // rest of the bytes could be read as a next request (smuggling): never keep a
  // connection alive after a chunked body.
  if (framing == BodyFraming::Chunked) response.setKeepAlive(false);
  switch (readRequestBody(request, framing, maxBodyBytes, body)) {
    case BodyReadResult::TooLarge:
      response.setKeepAlive(false);
      sendErrorEnvelope(response, 413, "BodyTooLarge",
                        std::nullopt, "The body is larger than " + std::to_string(maxBodyBytes) + " bytes.", trace);
      releaseIfHuge(body);
      return;
    case BodyReadResult::Incomplete:
      response.setKeepAlive(false);
      sendErrorEnvelope(response, 400, "IncompleteBody", std::nullopt,
                        "The body ended before its announced length.", trace);
      releaseIfHuge(body);
      return;
    case BodyReadResult::Complete:
      break;
  }

  RequestError error{RequestError::Kind::InvalidJson, {}, {}};
  GenerateCounts counts;
  CodesResponseSink sink(response, output, mediaTypeName(*responseType));
  try {
    if (!context_.engine.generateJson(body, sink, error, &counts)) {
      const int status = error.kind == RequestError::Kind::TooManyItems ? 413 : 400;
      sendErrorEnvelope(response, status, requestErrorCode(error.kind),
                        error.path.empty() ? std::nullopt : std::optional<std::string_view>(error.path), error.message,
                        trace);
    } else {
      trace.codes = counts.codes;
      trace.failures = counts.failures;
      sink.finish(trace);
      trace.status = 200;
    }
  } catch (...) {
    if (sink.streaming()) abortStreamedResponse(request);
    releaseIfHuge(body);
    releaseIfHuge(output);
    if (large) returnFreedMemoryToSystem();
    throw;
  }
  releaseIfHuge(body);
  releaseIfHuge(output);
  // After a large request the freed body, simdjson buffers and definitions go
  // back to the system, not into the allocator's free lists for good.
  if (large) returnFreedMemoryToSystem();
}

}  // namespace codepayload::server
