#include "server/handlers/codes_handler.h"

#include <algorithm>
#include <array>
#include <string>

#include "app/request_error_code.h"
#include "common/error_codes.h"
#include "engine/output_sink.h"
#include "server/handlers/unread_body.h"
#include "server/http/media_type.h"

namespace codepayload::server {

namespace {

// A 200 response grows in a buffer up to this size and goes out with a
// Content-Length when it ends below it; a larger one is sent chunked as the
// engine produces it, so the whole response is never held (D-S3). Going on
// past it takes a large-request slot: a worker may then wait for the reader.
constexpr std::size_t kBufferedResponseBytes = 1024 * 1024;

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

std::optional<JsonMediaType> responseType(const HttpExchange& exchange) {
  std::string joinedAccept;
  return negotiateJsonResponseType(acceptHeader(exchange, joinedAccept));
}

// Thrown by the sink when an answer grows past the buffer and no
// large-request slot is free for the rest: nothing of it was sent.
struct NoSlotForTheAnswer {
  LargeRequestSlots::Refusal refusal;
};

// The engine's output as the 200 response: buffered while small, then
// streamed. A write that fails (the client went away) throws and stops the
// engine; a stream left open is never ended, so the cut JSON cannot look
// complete (the connection closes without the last chunk).
class CodesResponseSink final : public OutputSink {
 public:
  CodesResponseSink(HttpExchange& exchange, RequestTrace& trace, LargeRequestSlots& slots, std::string_view contentType)
      : exchange_(exchange), trace_(trace), slots_(slots), contentType_(contentType) {
    // About the answer's size (an answer runs to about the body's), so that
    // it is not copied as it grows.
    buffer_.reserve(std::min(kBufferedResponseBytes, std::max<std::size_t>(16 * 1024, exchange.body().size())));
  }

  void write(std::string_view piece) override {
    if (!exchange_.streamOpen() && buffer_.size() + piece.size() <= kBufferedResponseBytes) {
      buffer_.append(piece);
      return;
    }
    if (!exchange_.streamOpen()) {
      if (!trace_.largeSlot) {
        trace_.largeSlot = slots_.tryTake(trace_.claims->clientId, trace_.claims->organizationId);
        if (!trace_.largeSlot) throw NoSlotForTheAnswer{*trace_.largeSlot.refusal()};
      }
      exchange_.addHeader("X-Content-Type-Options", "nosniff");
      exchange_.beginStream(200, contentType_);
      exchange_.streamWrite(buffer_);
      std::string().swap(buffer_);
    }
    exchange_.streamWrite(piece);
  }

  // Sends what is still buffered (the whole response, when it stayed small).
  void finish(RequestTrace& trace) {
    if (!exchange_.streamOpen()) {
      sendOwnedBody(exchange_, 200, contentType_, std::move(buffer_), trace);
      return;
    }
    exchange_.endStream();
    trace.status = 200;
    trace.responseBytes = exchange_.bodyBytesSent();
  }

 private:
  HttpExchange& exchange_;
  RequestTrace& trace_;
  LargeRequestSlots& slots_;
  std::string_view contentType_;
  std::string buffer_;
};

}  // namespace

void CodesHandler::countUsage(const RequestTrace& trace, std::uint64_t accepted, std::uint64_t rejected) const {
  context_.usage.codesAnswered(trace.claims->clientId, trace.claims->organizationId, accepted, rejected);
}

void CodesHandler::refuseLarge(HttpExchange& exchange, RequestTrace& trace, LargeRequestSlots::Refusal refusal) const {
  context_.metrics.countLargeRequestThrottle(refusal);
  countUsage(trace, 0, 0);
  exchange.addHeader("Retry-After", "1");
  const std::string limit = std::to_string(context_.largeRequests.limit(refusal));
  switch (refusal) {
    case LargeRequestSlots::Refusal::Client:
      sendErrorEnvelope(exchange, 429, error_code::kTooManyRequests, std::nullopt,
                        "This client already has as many large requests in progress as it may (" + limit +
                            "); send this one again when one of them is answered.",
                        trace);
      return;
    case LargeRequestSlots::Refusal::Organization:
      sendErrorEnvelope(exchange, 429, error_code::kTooManyRequests, std::nullopt,
                        "This client's organization already has as many large requests in progress as it may (" +
                            limit + "); send this one again when one of them is answered.",
                        trace);
      return;
    case LargeRequestSlots::Refusal::Server:
      sendErrorEnvelope(
          exchange, 503, error_code::kServiceUnavailable, std::nullopt,
          "The server is answering as many large requests as it may (" + limit + "); send this one again in a moment.",
          trace);
      return;
  }
}

std::size_t CodesHandler::admitRequest(HttpExchange& exchange, RequestTrace& trace) const {
  std::array<std::string_view, 2> authorizations;
  const std::size_t authorizationCount = exchange.fieldValues("Authorization", authorizations);
  const auth::BearerOutcome outcome = context_.auth.bearerAuthenticator().authenticate(
      std::span<const std::string_view>(authorizations.data(), authorizationCount),
      operation_ == CodesOperation::Generate ? auth::kWriteCodesScope : auth::kReadCodesScope);
  if (!outcome.allowed()) {
    if (!outcome.fault.empty() && context_.log) {
      context_.log({app::LogLevel::Error, "bearer token check failed: " + outcome.fault, exchange.requestId()});
    }
    if (!outcome.wwwAuthenticate.empty()) exchange.addHeader("WWW-Authenticate", outcome.wwwAuthenticate);
    sendErrorEnvelope(exchange, outcome.status, outcome.errorCode, std::nullopt, outcome.message, trace);
    return 0;
  }
  // Usage (D-D11): a request refused as a whole counts as one rejected code
  // (its items are not known); a throttled one only as a use of the client.
  trace.claims = outcome.claims;
  if (!isAcceptedJsonRequestType(exchange.field("Content-Type").value_or(std::string_view()))) {
    countUsage(trace, 0, 1);
    sendErrorEnvelope(exchange, 415, error_code::kUnsupportedMediaType, std::nullopt,
                      "Send the body as application/vnd.codepayload.public.v1+json or application/json.", trace);
    return 0;
  }
  if (!responseType(exchange)) {
    countUsage(trace, 0, 1);
    sendErrorEnvelope(exchange, 406, error_code::kNotAcceptable, std::nullopt,
                      "This endpoint produces application/vnd.codepayload.public.v1+json or application/json only.",
                      trace);
    return 0;
  }
  // Memory per client, organization and server (D-S3): a large body (over
  // limits.largeBodyBytes, or chunked) takes a slot before it is read.
  const std::size_t maxBodyBytes = context_.config.maxBodyBytes;
  const RequestHead& head = exchange.head();
  const bool withinLimit = !head.contentLength || *head.contentLength <= maxBodyBytes;
  const std::optional<std::size_t> announced =
      head.chunked ? std::nullopt
                   : std::optional<std::size_t>(static_cast<std::size_t>(head.contentLength.value_or(0)));
  if (withinLimit && context_.largeRequests.isLarge(announced)) {
    trace.largeSlot = context_.largeRequests.tryTake(trace.claims->clientId, trace.claims->organizationId);
    if (!trace.largeSlot) {
      // The body is read and dropped (never kept), so the client reads the
      // answer instead of a reset.
      exchange.dropUnreadBodyUpTo(maxBodyBytes);
      refuseLarge(exchange, trace, *trace.largeSlot.refusal());
      return 0;
    }
  }
  return maxBodyBytes;
}

void CodesHandler::handle(HttpExchange& exchange, RequestTrace& trace) const {
  if (const BodyRead read = exchange.bodyRead(); read != BodyRead::Complete) {
    trace.largeSlot = LargeRequestSlots::Slot();
    countUsage(trace, 0, 1);
    const UnreadBodyAnswer answer = unreadBodyAnswer(read, context_.config.maxBodyBytes);
    sendErrorEnvelope(exchange, answer.status, answer.code, std::nullopt, answer.message, trace);
    return;
  }

  RequestError error{RequestError::Kind::InvalidJson, {}, {}};
  GenerateCounts counts;
  const std::optional<JsonMediaType> type = responseType(exchange);
  CodesResponseSink sink(exchange, trace, context_.largeRequests, mediaTypeName(*type));
  bool generated = false;
  try {
    generated = operation_ == CodesOperation::Generate
                    ? context_.engine.generateJson(exchange.body(), sink, error, &counts)
                    : context_.engine.parseJson(exchange.body(), sink, error, &counts);
  } catch (const NoSlotForTheAnswer& noSlot) {
    refuseLarge(exchange, trace, noSlot.refusal);
    return;
  }
  // The slot goes back before the answer ends, so a client that sends its
  // next large request as soon as it has read this answer finds it free.
  trace.largeSlot = LargeRequestSlots::Slot();
  if (!generated) {
    countUsage(trace, 0, 1);
    const int status = error.kind == RequestError::Kind::TooManyItems ? 413 : 400;
    sendErrorEnvelope(exchange, status, app::requestErrorCode(error.kind),
                      error.path.empty() ? std::nullopt : std::optional<std::string_view>(error.path), error.message,
                      trace);
    return;
  }
  trace.codes = counts.codes;
  trace.failures = counts.failures;
  countUsage(trace, counts.codes, counts.failures);
  sink.finish(trace);
}

}  // namespace codepayload::server
