#include "server/service_handler.h"

#include <Poco/Net/HTTPResponse.h>

#include <chrono>
#include <exception>
#include <ostream>

#include "server/json_text.h"
#include "server/request_deadlines.h"

namespace codepayload::server {

namespace {

// Bodies up to this size go out together with the headers in one buffered
// write; larger ones are written in one call after the headers.
constexpr std::size_t kCoalescedBodyLimit = 3 * 1024;

constexpr std::string_view kTokenServerError = R"({"error":"server_error"})";

void sendFault(Poco::Net::HTTPServerResponse& response, ServiceHandler::FaultBody faultBody, RequestTrace& trace) {
  response.setKeepAlive(false);
  if (faultBody == ServiceHandler::FaultBody::TokenError) {
    response.set("Cache-Control", "no-store");
    response.set("Pragma", "no-cache");
    sendBody(response, 500, "Internal Server Error", "application/json", kTokenServerError, trace);
  } else {
    sendErrorEnvelope(response, 500, "ServerError", std::nullopt,
                      "The server could not handle this request; it is safe to retry.", trace);
  }
}

}  // namespace

void sendBody(Poco::Net::HTTPServerResponse& response, int status, std::string_view reason,
              std::string_view contentType, std::string_view body, RequestTrace& trace) {
  response.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(status), std::string(reason));
  response.setContentType(std::string(contentType));
  response.set("X-Content-Type-Options", "nosniff");
  response.setChunkedTransferEncoding(false);
  response.setContentLength64(static_cast<Poco::Int64>(body.size()));
  trace.status = status;
  trace.responseBytes = body.size();
  if (body.size() <= kCoalescedBodyLimit) {
    std::ostream& out = response.send();
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
    out.flush();
  } else {
    response.sendBuffer(body.data(), body.size());
  }
}

void sendErrorEnvelope(Poco::Net::HTTPServerResponse& response, int status, std::string_view code,
                       std::optional<std::string_view> path, std::string_view message, RequestTrace& trace) {
  const auto httpStatus = static_cast<Poco::Net::HTTPResponse::HTTPStatus>(status);
  sendBody(response, status, Poco::Net::HTTPResponse::getReasonForStatus(httpStatus), "application/json",
           errorEnvelope(code, path, message), trace);
}

void ServiceHandler::handleRequest(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) {
  const auto arrived = std::chrono::system_clock::now();
  const auto started = std::chrono::steady_clock::now();
  RequestTrace trace;
  try {
    handle(request, response, trace);
  } catch (const std::exception& error) {
    if (context_.log) context_.log(std::string("request failed: ") + error.what());
  } catch (...) {
    if (context_.log) context_.log("request failed: unknown exception");
  }
  if (trace.status == 0 || !response.sent()) {
    try {
      if (!response.sent()) {
        sendFault(response, faultBody_, trace);
      } else {
        trace.status = 500;
      }
    } catch (...) {
      trace.status = 500;
    }
    response.setKeepAlive(false);
  }
  markRequestAnswered();
  const auto finished = std::chrono::steady_clock::now();
  if (!context_.accessLog.enabled()) return;
  try {
    const std::string clientAddress = request.clientAddress().toString();
    AccessLogRecord record;
    record.time = arrived;
    record.method = request.getMethod();
    record.path = routePath_;
    record.status = trace.status;
    record.bytes = trace.responseBytes;
    record.durationMicros = std::chrono::duration_cast<std::chrono::microseconds>(finished - started).count();
    record.clientAddress = clientAddress;
    record.clientId = trace.claims ? std::string_view(trace.claims->clientId) : std::string_view(trace.clientId);
    record.codes = trace.codes;
    record.failures = trace.failures;
    context_.accessLog.write(record);
  } catch (...) {
    // A failed log write must not turn a served request into a dropped one.
  }
}

}  // namespace codepayload::server
