#include "server/codes_handler.h"

#include <array>
#include <string>

#include "app/request_error_code.h"
#include "engine/output_sink.h"
#include "server/media_type.h"
#include "server/memory_release.h"

namespace codepayload::server {

namespace {

// Per-thread buffers: a worker reuses its body and response memory across
// requests instead of allocating both every time. A buffer that grew past
// this after a huge batch is released.
constexpr std::size_t kRetainedBufferBytes = 4 * 1024 * 1024;

// A 200 response grows in a buffer up to this size and goes out with a
// Content-Length when it ends below it; a larger one is sent chunked as the
// engine produces it, so the whole response is never held (D-S3).
constexpr std::size_t kBufferedResponseBytes = 1024 * 1024;

void releaseIfHuge(std::string& buffer) {
  if (buffer.capacity() > kRetainedBufferBytes) std::string().swap(buffer);
}

// The Accept value; several Accept headers are joined with ", " into
// `joined` (RFC 9110 §5.3). nullopt when absent.
std::optional<std::string_view> acceptHeader(const HttpExchange& exchange, std::string& joined) {
  std::array<std::string_view, 16> values;
  const std::size_t count = exchange.fieldValues("Accept", values);
  if (count == 0) return std::nullopt;
  if (count == 1) return values[0];
  joined.assign(values[0]);
  for (std::size_t index = 1; index < count; ++index) {
    joined.append(", ");
    joined.append(values[index]);
  }
  return std::string_view(joined);
}

// The engine's output as the 200 response: buffered while small, then
// streamed. A write that fails (the client went away) throws and stops the
// engine; a stream left open is never ended, so the cut JSON cannot look
// complete (the connection closes without the last chunk).
class CodesResponseSink final : public OutputSink {
 public:
  CodesResponseSink(HttpExchange& exchange, std::string& buffer, std::string_view contentType)
      : exchange_(exchange), buffer_(buffer), contentType_(contentType) {
    buffer_.clear();
  }

  void write(std::string_view piece) override {
    if (!exchange_.streamOpen() && buffer_.size() + piece.size() <= kBufferedResponseBytes) {
      buffer_.append(piece);
      return;
    }
    if (!exchange_.streamOpen()) {
      exchange_.addHeader("X-Content-Type-Options", "nosniff");
      exchange_.beginStream(200, contentType_);
      exchange_.streamWrite(buffer_);
      buffer_.clear();
    }
    exchange_.streamWrite(piece);
  }

  // Sends what is still buffered (the whole response, when it stayed small).
  void finish(RequestTrace& trace) {
    if (!exchange_.streamOpen()) {
      sendBody(exchange_, 200, contentType_, buffer_, trace);
      return;
    }
    exchange_.endStream();
    trace.status = 200;
    trace.responseBytes = exchange_.bodyBytesSent();
  }

 private:
  HttpExchange& exchange_;
  std::string& buffer_;
  std::string_view contentType_;
};

}  // namespace

void CodesHandler::handle(HttpExchange& exchange, RequestTrace& trace) const {
  std::array<std::string_view, 2> authorizations;
  const std::size_t authorizationCount = exchange.fieldValues("Authorization", authorizations);
  const auth::BearerOutcome outcome = context_.auth.bearerAuthenticator().authenticate(
      std::span<const std::string_view>(authorizations.data(), authorizationCount), kCodesScope);
  if (!outcome.allowed()) {
    if (!outcome.fault.empty() && context_.log) {
      context_.log({app::LogLevel::Error, "bearer token check failed: " + outcome.fault, exchange.requestId()});
    }
    if (!outcome.wwwAuthenticate.empty()) exchange.addHeader("WWW-Authenticate", outcome.wwwAuthenticate);
    sendErrorEnvelope(exchange, outcome.status, outcome.errorCode, std::nullopt, outcome.message, trace);
    return;
  }
  trace.claims = outcome.claims;
  // Usage (D-D11): a request refused as a whole counts as one rejected code
  // (its items are not known); a throttled one only as a use of the client.
  const auth::AccessTokenClaims& claims = *outcome.claims;
  const auto countUsage = [&](std::uint64_t accepted, std::uint64_t rejected) {
    context_.usage.codesAnswered(claims.clientId, claims.organisationId, accepted, rejected);
  };

  if (!isAcceptedJsonRequestType(exchange.field("Content-Type").value_or(std::string_view()))) {
    countUsage(0, 1);
    sendErrorEnvelope(exchange, 415, "UnsupportedMediaType", std::nullopt,
                      "Send the body as application/vnd.codepayload.public.v1+json or application/json.", trace);
    return;
  }
  std::string joinedAccept;
  const std::optional<JsonMediaType> responseType = negotiateJsonResponseType(acceptHeader(exchange, joinedAccept));
  if (!responseType) {
    countUsage(0, 1);
    sendErrorEnvelope(exchange, 406, "NotAcceptable", std::nullopt,
                      "This endpoint produces application/vnd.codepayload.public.v1+json or application/json only.",
                      trace);
    return;
  }

  // Memory per client (D-S3): a large body (over limits.largeBodyBytes, or
  // chunked) takes one of the client's large-request slots before it is read.
  const std::size_t maxBodyBytes = context_.config.maxBodyBytes;
  const RequestHead& head = exchange.head();
  const bool withinLimit = !head.contentLength || *head.contentLength <= maxBodyBytes;
  const bool large =
      withinLimit && context_.largeRequests.isLarge(head.chunked ? std::nullopt
                                                                 : std::optional<std::size_t>(static_cast<std::size_t>(
                                                                       head.contentLength.value_or(0))));
  LargeRequestSlots::Slot largeSlot;
  if (large) {
    largeSlot = context_.largeRequests.tryTake(outcome.claims->clientId);
    if (!largeSlot) {
      // The body is read and dropped (never kept), so the client reads the
      // answer instead of a reset.
      if (!exchange.discardBody(maxBodyBytes)) exchange.closeAfterAnswer();
      context_.metrics.countLargeRequestThrottle();
      countUsage(0, 0);
      exchange.addHeader("Retry-After", "1");
      sendErrorEnvelope(exchange, 429, "TooManyRequests", std::nullopt,
                        "This client already has as many large requests in progress as it may (" +
                            std::to_string(context_.largeRequests.perClient()) +
                            "); send this one again when one of them is answered.",
                        trace);
      return;
    }
  }

  thread_local std::string body;
  thread_local std::string output;
  const auto releaseMemory = [large] {
    releaseIfHuge(body);
    releaseIfHuge(output);
    // After a large request the freed body, simdjson buffers and definitions
    // go back to the system, not into the allocator's free lists for good.
    if (large) returnFreedMemoryToSystem();
  };
  const BodyRead bodyRead = exchange.readBody(maxBodyBytes, body);
  if (bodyRead != BodyRead::Complete) {
    largeSlot = LargeRequestSlots::Slot();
    countUsage(0, 1);
  }
  switch (bodyRead) {
    case BodyRead::TooLarge:
      sendErrorEnvelope(exchange, 413, "BodyTooLarge", std::nullopt,
                        "The body is larger than " + std::to_string(maxBodyBytes) + " bytes.", trace);
      releaseMemory();
      return;
    case BodyRead::LengthRequired:
      sendErrorEnvelope(exchange, 411, "LengthRequired", std::nullopt, "Send a Content-Length or a chunked body.",
                        trace);
      return;
    case BodyRead::Incomplete:
      sendErrorEnvelope(exchange, 400, "IncompleteBody", std::nullopt, "The body ended before its announced length.",
                        trace);
      releaseMemory();
      return;
    case BodyRead::Malformed:
      sendErrorEnvelope(exchange, 400, "InvalidFraming", std::nullopt,
                        "The chunked body does not follow RFC 9112 §7.1.", trace);
      releaseMemory();
      return;
    case BodyRead::Complete: break;
  }

  RequestError error{RequestError::Kind::InvalidJson, {}, {}};
  GenerateCounts counts;
  CodesResponseSink sink(exchange, output, mediaTypeName(*responseType));
  try {
    const bool generated = context_.engine.generateJson(body, sink, error, &counts);
    // The slot goes back before the answer ends, so a client that sends its
    // next large request as soon as it has read this answer finds it free.
    largeSlot = LargeRequestSlots::Slot();
    if (!generated) {
      countUsage(0, 1);
      const int status = error.kind == RequestError::Kind::TooManyItems ? 413 : 400;
      sendErrorEnvelope(exchange, status, app::requestErrorCode(error.kind),
                        error.path.empty() ? std::nullopt : std::optional<std::string_view>(error.path), error.message,
                        trace);
    } else {
      trace.codes = counts.codes;
      trace.failures = counts.failures;
      countUsage(counts.codes, counts.failures);
      sink.finish(trace);
    }
  } catch (...) {
    releaseMemory();
    throw;
  }
  releaseMemory();
}

}  // namespace codepayload::server
