// The base of every handler: times the request, catches every exception (a
// JSON 500 instead of Poco's bare one or a dropped connection), starts the
// connection's deadline for its next request, and writes the access log line.
// Subclasses only translate HTTP to a call and back.
#pragma once

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "server/service_context.h"

namespace codepayload::server {

// What a handler tells the access log beyond the request itself.
struct RequestTrace {
  int status = 0;
  std::uint64_t responseBytes = 0;
  std::string clientId;  // the token endpoint's authenticated client; empty: none
  std::shared_ptr<const auth::AccessTokenClaims> claims;  // /codes: the verified token
  std::optional<std::size_t> codes;
  std::optional<std::size_t> failures;
};

class ServiceHandler : public Poco::Net::HTTPRequestHandler {
 public:
  // The body of an unexpected 500: the token endpoint's flat
  // {"error":"server_error"}, or an ErrorEnvelope everywhere else.
  enum class FaultBody { TokenError, Envelope };

  ServiceHandler(const ServiceContext& context, FaultBody faultBody) : context_(context), faultBody_(faultBody) {}

  void handleRequest(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) final;

  // The route path written to the access log ("" for an unknown path).
  void setRoutePath(std::string_view routePath) { routePath_ = routePath; }

 protected:
  virtual void handle(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response,
                      RequestTrace& trace) = 0;

  const ServiceContext& context_;

 private:
  FaultBody faultBody_;
  std::string_view routePath_;
};

// Sends a complete response: status and reason, Content-Type, nosniff,
// Content-Length, and the body in one write.
void sendBody(Poco::Net::HTTPServerResponse& response, int status, std::string_view reason,
              std::string_view contentType, std::string_view body, RequestTrace& trace);

// Sends an ErrorEnvelope (application/json) with the status's standard reason.
void sendErrorEnvelope(Poco::Net::HTTPServerResponse& response, int status, std::string_view code,
                       std::optional<std::string_view> path, std::string_view message, RequestTrace& trace);

}  // namespace codepayload::server
