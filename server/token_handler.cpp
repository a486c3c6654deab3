#include "server/token_handler.h"

#include <Poco/Net/HTTPRequest.h>
#include <Poco/String.h>

#include <array>
#include <string>

#include "server/request_body.h"

namespace codepayload::server {

namespace {

// Bodies the token endpoint reads; larger ones, and bodies whose end cannot be
// told (no length, or conflicting framing) are refused here, as the framing
// errors they are, with the flat 400 invalid_request the endpoint would give.
// A body over the limit is drained when small (kDrainLimit), otherwise the
// connection closes without reading it.
constexpr std::size_t kTokenBodyLimit = auth::TokenEndpointLimits{}.maxBodyBytes;

constexpr std::string_view kInvalidRequest = R"({"error":"invalid_request"})";

std::size_t headerValues(const Poco::Net::HTTPServerRequest& request, const std::string& name,
                         std::array<std::string_view, 4>& values) {
  std::size_t count = 0;
  for (auto it = request.find(name); it != request.end() && count < values.size(); ++it) {
    if (Poco::icompare(it->first, name) != 0) break;
    values[count++] = it->second;
  }
  return count;
}

std::string_view rawQuery(std::string_view target) {
  const auto question = target.find('?');
  if (question == std::string_view::npos) return {};
  std::string_view query = target.substr(question + 1);
  const auto hash = query.find('#');
  return hash == std::string_view::npos ? query : query.substr(0, hash);
}

}  // namespace

void TokenHandler::handle(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response,
                          RequestTrace& trace) {
  std::string body;
  const bool isPost = request.getMethod() == Poco::Net::HTTPRequest::HTTP_POST;
  const BodyFraming framing = bodyFraming(request, kTokenBodyLimit);
  bool bodyUsable = framing == BodyFraming::Empty || framing == BodyFraming::Length ||
                    framing == BodyFraming::Chunked;
  if (!isPost) {
    // The endpoint answers 405 without looking at a body.
    discardUnreadBody(request, response);
  } else if (bodyUsable) {
    // No keep-alive after a chunked body: see CodesHandler (malformed chunk sizes).
    if (framing == BodyFraming::Chunked) response.setKeepAlive(false);
    bodyUsable = readRequestBody(request, framing, kTokenBodyLimit, body) == BodyReadResult::Complete;
  }
  if (isPost && !bodyUsable) {
    if (framing == BodyFraming::TooLarge) {
      discardUnreadBody(request, response);  // drains up to kDrainLimit, else closes
    } else {
      response.setKeepAlive(false);
    }
    response.set("Cache-Control", "no-store");
    response.set("Pragma", "no-cache");
    sendBody(response, 400, "Bad Request", "application/json", kInvalidRequest, trace);
    return;
  }

  std::array<std::string_view, 4> contentTypes;
  std::array<std::string_view, 4> authorizations;
  const std::size_t contentTypeCount = headerValues(request, "Content-Type", contentTypes);
  const std::size_t authorizationCount = headerValues(request, "Authorization", authorizations);
  const std::string clientAddress = request.clientAddress().host().toString();

  auth::TokenRequest tokenRequest;
  tokenRequest.method = request.getMethod();
  tokenRequest.contentTypes = std::span<const std::string_view>(contentTypes.data(), contentTypeCount);
  tokenRequest.authorizations = std::span<const std::string_view>(authorizations.data(), authorizationCount);
  tokenRequest.query = rawQuery(request.getURI());
  tokenRequest.body = body;
  tokenRequest.clientAddress = clientAddress;

  auth::TokenOutcome outcome = context_.auth.tokenEndpoint().handle(tokenRequest);
  trace.clientId = std::move(outcome.clientId);
  std::string contentType = "application/json";
  for (const auto& header : outcome.answer.headers) {
    if (Poco::icompare(header.name, "Content-Type") == 0) {
      contentType = header.value;
    } else {
      response.set(header.name, header.value);
    }
  }
  sendBody(response, outcome.answer.status, outcome.answer.reason, contentType, outcome.answer.body, trace);
}

}  // namespace codepayload::server
