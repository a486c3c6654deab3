#include "server/handlers/service_handler.h"

#include <chrono>
#include <exception>

#include "auth/token_endpoint.h"
#include "common/error_codes.h"
#include "server/http/error_envelope.h"

namespace codepayload::server {

namespace {

void sendFault(HttpExchange& exchange, ServiceHandler::FaultBody faultBody, RequestTrace& trace) {
  exchange.closeAfterAnswer();
  if (faultBody == ServiceHandler::FaultBody::TokenError) {
    exchange.addHeader("Cache-Control", "no-store");
    exchange.addHeader("Pragma", "no-cache");
    sendBody(exchange, 500, "application/json",
             auth::tokenErrorBody("server_error", auth::token_error_descriptions::kServerError), trace);
  } else {
    sendErrorEnvelope(exchange, 500, error_code::kServerError, std::nullopt,
                      "The server could not handle this request; it is safe to retry.", trace);
  }
}

}  // namespace

// One request's record, kept by the exchange from admit() to the end of the
// answer: which handler answers it, when it arrived, where it is counted.
class ServiceHandler::Record final : public RequestState {
 public:
  Record(const ServiceHandler& handler, RouteMetrics& route)
      : handler_(handler),
        route_(route),
        arrived_(std::chrono::system_clock::now()),
        started_(std::chrono::steady_clock::now()) {}

  const ServiceHandler& handler() const { return handler_; }
  RequestTrace& trace() { return trace_; }

  void finished(const HttpExchange& exchange, bool delivered) noexcept override {
    if (trace_.status == 0) {
      trace_.status = exchange.status();
      trace_.responseBytes = exchange.bodyBytesSent();
    }
    const std::int64_t durationMicros =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started_).count();
    route_.record(trace_.status, static_cast<std::uint64_t>(durationMicros));
    const ServiceContext& context = handler_.context_;
    if (!delivered) context.metrics.countUndeliveredAnswer();
    if (!context.accessLog.enabled()) return;
    try {
      AccessLogRecord record;
      record.time = arrived_;
      record.requestId = exchange.requestId();
      record.method = exchange.method();
      record.path = route_.route();
      record.status = trace_.status;
      record.bytes = trace_.responseBytes;
      record.durationMicros = durationMicros;
      record.clientAddress = exchange.clientAddress();
      record.clientId = trace_.claims ? std::string_view(trace_.claims->clientId) : std::string_view(trace_.clientId);
      record.codes = trace_.codes;
      record.failures = trace_.failures;
      record.undelivered = !delivered;
      context.accessLog.write(record);
    } catch (...) {
      // A failed log write must not turn a served request into a dropped one.
    }
  }

 private:
  const ServiceHandler& handler_;
  RouteMetrics& route_;
  const std::chrono::system_clock::time_point arrived_;
  const std::chrono::steady_clock::time_point started_;
  RequestTrace trace_;
};

void sendBody(HttpExchange& exchange, int status, std::string_view contentType, std::string_view body,
              RequestTrace& trace) {
  exchange.addHeader("X-Content-Type-Options", "nosniff");
  trace.status = status;
  trace.responseBytes = exchange.method() == "HEAD" ? 0 : body.size();
  exchange.send(status, contentType, body);
}

void sendOwnedBody(HttpExchange& exchange, int status, std::string_view contentType, std::string&& body,
                   RequestTrace& trace) {
  exchange.addHeader("X-Content-Type-Options", "nosniff");
  trace.status = status;
  trace.responseBytes = body.size();
  exchange.sendOwned(status, contentType, std::move(body));
}

void sendErrorEnvelope(HttpExchange& exchange, int status, std::string_view code, std::optional<std::string_view> path,
                       std::string_view message, RequestTrace& trace) {
  sendBody(exchange, status, "application/json", errorEnvelope(code, path, message), trace);
}

std::size_t ServiceHandler::admitRequest(HttpExchange& /*exchange*/, RequestTrace& /*trace*/) const {
  return bodyLimit_;
}

std::size_t ServiceHandler::admit(HttpExchange& exchange, RouteMetrics& route) const noexcept {
  auto record = std::make_unique<Record>(*this, route);
  RequestTrace& trace = record->trace();
  exchange.keep(std::move(record));
  try {
    return admitRequest(exchange, trace);
  } catch (const std::exception& error) {
    logFailure(exchange, error.what());
  } catch (...) {
    logFailure(exchange, "unknown exception");
  }
  if (!exchange.answered()) sendFaultOrMark(exchange, trace);
  return 0;
}

void ServiceHandler::serveAdmitted(HttpExchange& exchange) noexcept {
  auto* const record = static_cast<Record*>(exchange.state());
  record->handler().serve(exchange, record->trace());
}

void ServiceHandler::serve(HttpExchange& exchange, RequestTrace& trace) const noexcept {
  try {
    handle(exchange, trace);
  } catch (const ConnectionLost&) {
    // The client went away or read too slowly: the connection ends, nothing
    // is wrong with the server.
  } catch (const std::exception& error) {
    logFailure(exchange, error.what());
  } catch (...) {
    logFailure(exchange, "unknown exception");
  }
  if (!exchange.answered()) {
    sendFaultOrMark(exchange, trace);
  } else if (exchange.streamOpen()) {
    // A streamed answer cut short: the connection ends without its last chunk.
    exchange.closeAfterAnswer();
    trace.status = 500;
  }
}

void ServiceHandler::logFailure(const HttpExchange& exchange, std::string_view what) const noexcept {
  if (!context_.log) return;
  try {
    context_.log({app::LogLevel::Error, "request failed: " + std::string(what), exchange.requestId()});
  } catch (...) {
    // Logging is best effort here: the answer below matters more.
  }
}

void ServiceHandler::sendFaultOrMark(HttpExchange& exchange, RequestTrace& trace) const noexcept {
  try {
    sendFault(exchange, faultBody_, trace);
  } catch (...) {
    trace.status = 500;
  }
}

}  // namespace codepayload::server
