#include "server/codes_handler.h"

#include <Poco/String.h>

#include <array>
#include <iterator>
#include <string>

#include "server/media_type.h"
#include "server/request_body.h"

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
  if (!context_.engine.generateJson(body, output, error, &counts)) {
    const int status = error.kind == RequestError::Kind::TooManyItems ? 413 : 400;
    sendErrorEnvelope(response, status, requestErrorCode(error.kind),
                      error.path.empty() ? std::nullopt : std::optional<std::string_view>(error.path), error.message,
                      trace);
  } else {
    trace.codes = counts.codes;
    trace.failures = counts.failures;
    sendBody(response, 200, "OK", mediaTypeName(*responseType), output, trace);
  }
  releaseIfHuge(body);
  releaseIfHuge(output);
}

}  // namespace codepayload::server
