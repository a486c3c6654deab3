#include "server/service_handler.h"

#include <chrono>
#include <exception>

#include "auth/token_endpoint.h"
#include "server/json_text.h"

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
    sendErrorEnvelope(exchange, 500, "ServerError", std::nullopt,
                      "The server could not handle this request; it is safe to retry.", trace);
  }
}

}  // namespace

void sendBody(HttpExchange& exchange, int status, std::string_view contentType, std::string_view body,
              RequestTrace& trace) {
  exchange.addHeader("X-Content-Type-Options", "nosniff");
  trace.status = status;
  trace.responseBytes = exchange.method() == "HEAD" ? 0 : body.size();
  exchange.send(status, contentType, body);
}

void sendErrorEnvelope(HttpExchange& exchange, int status, std::string_view code, std::optional<std::string_view> path,
                       std::string_view message, RequestTrace& trace) {
  sendBody(exchange, status, "application/json", errorEnvelope(code, path, message), trace);
}

void ServiceHandler::serve(HttpExchange& exchange, RouteMetrics& route) const noexcept {
  const auto arrived = std::chrono::system_clock::now();
  const auto started = std::chrono::steady_clock::now();
  RequestTrace trace;
  try {
    handle(exchange, trace);
  } catch (const std::exception& error) {
    if (context_.log) {
      context_.log({app::LogLevel::Error, std::string("request failed: ") + error.what(), exchange.requestId()});
    }
  } catch (...) {
    if (context_.log) context_.log({app::LogLevel::Error, "request failed: unknown exception", exchange.requestId()});
  }
  if (!exchange.answered()) {
    try {
      sendFault(exchange, faultBody_, trace);
    } catch (...) {
      trace.status = 500;
    }
  } else if (exchange.streamOpen()) {
    // A streamed answer cut short: the connection ends without its last chunk.
    exchange.closeAfterAnswer();
    trace.status = 500;
  } else if (trace.status == 0) {
    trace.status = exchange.status();
    trace.responseBytes = exchange.bodyBytesSent();
  }
  const auto finished = std::chrono::steady_clock::now();
  const std::int64_t durationMicros = std::chrono::duration_cast<std::chrono::microseconds>(finished - started).count();
  route.record(trace.status, static_cast<std::uint64_t>(durationMicros));
  if (!context_.accessLog.enabled()) return;
  try {
    AccessLogRecord record;
    record.time = arrived;
    record.requestId = exchange.requestId();
    record.method = exchange.method();
    record.path = route.route();
    record.status = trace.status;
    record.bytes = trace.responseBytes;
    record.durationMicros = durationMicros;
    record.clientAddress = exchange.clientAddress();
    record.clientId = trace.claims ? std::string_view(trace.claims->clientId) : std::string_view(trace.clientId);
    record.codes = trace.codes;
    record.failures = trace.failures;
    context_.accessLog.write(record);
  } catch (...) {
    // A failed log write must not turn a served request into a dropped one.
  }
}

}  // namespace codepayload::server
