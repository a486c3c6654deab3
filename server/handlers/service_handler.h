// The base of every handler: admits the request (may refuse it before its
// body is read), answers it, catches every exception (a 500 in the route's
// error shape instead of a dropped connection), and, once the answer went out
// or the connection ended, counts it and writes the access log line.
// Subclasses only translate HTTP to a call and back; the body is read,
// drained or refused by the HTTP connection, never by them.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "server/connections/http_connection.h"
#include "server/connections/large_request_slots.h"
#include "server/handlers/service_context.h"
#include "server/observability/service_metrics.h"

namespace codepayload::server {

// What a handler tells the access log beyond the request itself, and what it
// holds for the request from its admission to its answer.
struct RequestTrace {
  int status = 0;
  std::uint64_t responseBytes = 0;
  std::string clientId;                                   // the token endpoint's authenticated client; empty: none
  std::shared_ptr<const auth::AccessTokenClaims> claims;  // /codes: the verified token
  std::optional<std::size_t> codes;
  std::optional<std::size_t> failures;
  // /codes: the large-request slot, from the admission until the answer is made.
  LargeRequestSlots::Slot largeSlot;
};

class ServiceHandler {
 public:
  // The body of an unexpected 500: the token endpoint's flat
  // {"error":"server_error"}, or an ErrorEnvelope everywhere else.
  enum class FaultBody { TokenError, Envelope };

  // `bodyLimit`: the body bytes the handler reads (0: none; admitRequest may
  // say otherwise per request).
  ServiceHandler(const ServiceContext& context, FaultBody faultBody, std::size_t bodyLimit = 0)
      : context_(context), faultBody_(faultBody), bodyLimit_(bodyLimit) {}
  virtual ~ServiceHandler() = default;

  ServiceHandler(const ServiceHandler&) = delete;
  ServiceHandler& operator=(const ServiceHandler&) = delete;

  // The head is in: starts the request's record (counted under `route`, whose
  // path is what the access log names, "" for an unknown path) and returns the
  // body bytes the handler reads, or answers at once.
  std::size_t admit(HttpExchange& exchange, RouteMetrics& route) const noexcept;
  // The body is in: the handler that admitted the request answers it.
  static void serveAdmitted(HttpExchange& exchange) noexcept;

 protected:
  // Before the body is read: may answer (a refusal); returns how many body
  // bytes handle() reads. By default the handler's bodyLimit.
  virtual std::size_t admitRequest(HttpExchange& exchange, RequestTrace& trace) const;
  virtual void handle(HttpExchange& exchange, RequestTrace& trace) const = 0;

  const ServiceContext& context_;

 private:
  class Record;
  void serve(HttpExchange& exchange, RequestTrace& trace) const noexcept;
  // What a handler threw: one error line with the request id.
  void logFailure(const HttpExchange& exchange, std::string_view what) const noexcept;
  // The 500 of a request nothing answered; when even that cannot be sent,
  // the trace says 500 (the connection ends).
  void sendFaultOrMark(HttpExchange& exchange, RequestTrace& trace) const noexcept;

  FaultBody faultBody_;
  std::size_t bodyLimit_;
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
// The same, keeping `body` without a copy.
void sendOwnedBody(HttpExchange& exchange, int status, std::string_view contentType, std::string&& body,
                   RequestTrace& trace);

// Sends an ErrorEnvelope (application/json).
void sendErrorEnvelope(HttpExchange& exchange, int status, std::string_view code, std::optional<std::string_view> path,
                       std::string_view message, RequestTrace& trace);

}  // namespace codepayload::server
