// The base of every handler: times the request, catches every exception (a
// 500 in the route's error shape instead of a dropped connection), and writes
// the access log line. Subclasses only translate HTTP to a call and back; the
// body is read, drained or refused by the HttpExchange, never by them alone.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "server/http_connection.h"
#include "server/service_context.h"
#include "server/service_metrics.h"

namespace codepayload::server {

// What a handler tells the access log beyond the request itself.
struct RequestTrace {
  int status = 0;
  std::uint64_t responseBytes = 0;
  std::string clientId;                                   // the token endpoint's authenticated client; empty: none
  std::shared_ptr<const auth::AccessTokenClaims> claims;  // /codes: the verified token
  std::optional<std::size_t> codes;
  std::optional<std::size_t> failures;
};

class ServiceHandler {
 public:
  // The body of an unexpected 500: the token endpoint's flat
  // {"error":"server_error"}, or an ErrorEnvelope everywhere else.
  enum class FaultBody { TokenError, Envelope };

  ServiceHandler(const ServiceContext& context, FaultBody faultBody) : context_(context), faultBody_(faultBody) {}
  virtual ~ServiceHandler() = default;

  ServiceHandler(const ServiceHandler&) = delete;
  ServiceHandler& operator=(const ServiceHandler&) = delete;

  // Answers the request and counts it under `route`, whose path is what the
  // access log names ("" for an unknown path).
  void serve(HttpExchange& exchange, RouteMetrics& route) const noexcept;

 protected:
  virtual void handle(HttpExchange& exchange, RequestTrace& trace) const = 0;

  const ServiceContext& context_;

 private:
  FaultBody faultBody_;
};

// Whether a route of `routeMethod` takes a request of `requestMethod`: the
// same method, or HEAD on a GET route (RFC 9110 §9.3.2: HEAD is GET without
// the body, which HttpExchange::send leaves out while keeping the GET's
// Content-Length).
constexpr bool routeTakes(std::string_view routeMethod, std::string_view requestMethod) {
  return routeMethod == requestMethod || (routeMethod == "GET" && requestMethod == "HEAD");
}

// The methods a route of `routeMethod` allows, as the Allow header of a 405
// lists them: "GET, HEAD" for a GET route.
constexpr std::string_view allowedMethods(std::string_view routeMethod) {
  return routeMethod == "GET" ? std::string_view("GET, HEAD") : routeMethod;
}

// Sends a complete response: status, Content-Type, nosniff, Content-Length,
// and the body (left out for HEAD).
void sendBody(HttpExchange& exchange, int status, std::string_view contentType, std::string_view body,
              RequestTrace& trace);

// Sends an ErrorEnvelope (application/json).
void sendErrorEnvelope(HttpExchange& exchange, int status, std::string_view code, std::optional<std::string_view> path,
                       std::string_view message, RequestTrace& trace);

}  // namespace codepayload::server
