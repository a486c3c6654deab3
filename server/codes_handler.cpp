#include "server/codes_handler.h"

#include <array>
#include <string>

#include "server/media_type.h"

namespace codepayload::server {

namespace {

// Per-thread buffers: a worker reuses its body and response memory across
// requests instead of allocating both every time. A buffer that grew past
// this after a huge batch is released.
constexpr std::size_t kRetainedBufferBytes = 4 * 1024 * 1024;

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

std::string_view requestErrorCode(RequestError::Kind kind) {
  switch (kind) {
    case RequestError::Kind::InvalidJson: return "InvalidJson";
    case RequestError::Kind::MissingField: return "MissingField";
    case RequestError::Kind::WrongType: return "WrongType";
    case RequestError::Kind::TooManyItems: return "TooManyItems";
  }
  return "InvalidJson";
}

}  // namespace

void CodesHandler::handle(HttpExchange& exchange, RequestTrace& trace) const {
  std::array<std::string_view, 2> authorizations;
  const std::size_t authorizationCount = exchange.fieldValues("Authorization", authorizations);
  const auth::BearerOutcome outcome = context_.auth.bearerAuthenticator().authenticate(
      std::span<const std::string_view>(authorizations.data(), authorizationCount), kCodesScope);
  if (!outcome.allowed()) {
    exchange.addHeader("WWW-Authenticate", outcome.wwwAuthenticate);
    sendErrorEnvelope(exchange, outcome.status, outcome.errorCode, std::nullopt, outcome.message, trace);
    return;
  }
  trace.claims = outcome.claims;

  if (!isAcceptedJsonRequestType(exchange.field("Content-Type").value_or(std::string_view()))) {
    sendErrorEnvelope(exchange, 415, "UnsupportedMediaType", std::nullopt,
                      "Send the body as application/vnd.codepayload.public.v1+json or application/json.", trace);
    return;
  }
  std::string joinedAccept;
  const std::optional<JsonMediaType> responseType = negotiateJsonResponseType(acceptHeader(exchange, joinedAccept));
  if (!responseType) {
    sendErrorEnvelope(exchange, 406, "NotAcceptable", std::nullopt,
                      "This endpoint produces application/vnd.codepayload.public.v1+json or application/json only.",
                      trace);
    return;
  }

  const std::size_t maxBodyBytes = context_.config.maxBodyBytes;
  thread_local std::string body;
  thread_local std::string output;
  switch (exchange.readBody(maxBodyBytes, body)) {
    case BodyRead::TooLarge:
      sendErrorEnvelope(exchange, 413, "BodyTooLarge", std::nullopt,
                        "The body is larger than " + std::to_string(maxBodyBytes) + " bytes.", trace);
      releaseIfHuge(body);
      return;
    case BodyRead::LengthRequired:
      sendErrorEnvelope(exchange, 411, "LengthRequired", std::nullopt, "Send a Content-Length or a chunked body.",
                        trace);
      return;
    case BodyRead::Incomplete:
      sendErrorEnvelope(exchange, 400, "IncompleteBody", std::nullopt, "The body ended before its announced length.",
                        trace);
      releaseIfHuge(body);
      return;
    case BodyRead::Malformed:
      sendErrorEnvelope(exchange, 400, "InvalidFraming", std::nullopt,
                        "The chunked body does not follow RFC 9112 §7.1.", trace);
      releaseIfHuge(body);
      return;
    case BodyRead::Complete:
      break;
  }

  RequestError error{RequestError::Kind::InvalidJson, {}, {}};
  GenerateCounts counts;
  if (!context_.engine.generateJson(body, output, error, &counts)) {
    const int status = error.kind == RequestError::Kind::TooManyItems ? 413 : 400;
    sendErrorEnvelope(exchange, status, requestErrorCode(error.kind),
                      error.path.empty() ? std::nullopt : std::optional<std::string_view>(error.path), error.message,
                      trace);
  } else {
    trace.codes = counts.codes;
    trace.failures = counts.failures;
    sendBody(exchange, 200, mediaTypeName(*responseType), output, trace);
  }
  releaseIfHuge(body);
  releaseIfHuge(output);
}

}  // namespace codepayload::server
