#include "server/handlers/token_handler.h"

#include <array>
#include <string>

#include "common/ascii.h"
#include "server/handlers/unread_body.h"

namespace codepayload::server {

namespace {

// Bodies the token endpoint reads; a larger body, or one whose end cannot be
// told, is refused as the framing error it is, with the 400 invalid_request
// the endpoint would give, and the connection closes.
constexpr std::size_t kTokenBodyLimit = auth::TokenEndpointLimits{}.maxBodyBytes;

std::string_view rawQuery(std::string_view target) {
  const auto question = target.find('?');
  if (question == std::string_view::npos) return {};
  std::string_view query = target.substr(question + 1);
  const auto hash = query.find('#');
  return hash == std::string_view::npos ? query : query.substr(0, hash);
}

}  // namespace

std::size_t TokenHandler::admitRequest(HttpExchange& exchange, RequestTrace& /*trace*/) const {
  return exchange.method() == "POST" ? kTokenBodyLimit : 0;
}

void TokenHandler::handle(HttpExchange& exchange, RequestTrace& trace) const {
  // The endpoint answers other methods with 405 without looking at a body
  // (the connection drops or refuses it).
  std::string_view body;
  if (exchange.method() == "POST") {
    if (const BodyRead read = exchange.bodyRead(); read != BodyRead::Complete) {
      exchange.addHeader("Cache-Control", "no-store");
      exchange.addHeader("Pragma", "no-cache");
      sendBody(exchange, 400, "application/json",
               auth::tokenErrorBody("invalid_request", unreadBodyAnswer(read, kTokenBodyLimit).message), trace);
      // What the endpoint calls a body it cannot take as a form.
      context_.metrics.countTokenOutcome(auth::tokenCause("badForm"));
      return;
    }
    body = exchange.body();
  }

  std::array<std::string_view, 4> contentTypes;
  std::array<std::string_view, 4> authorizations;
  auth::TokenRequest tokenRequest;
  tokenRequest.method = exchange.method();
  tokenRequest.contentTypes =
      std::span<const std::string_view>(contentTypes.data(), exchange.fieldValues("Content-Type", contentTypes));
  tokenRequest.authorizations =
      std::span<const std::string_view>(authorizations.data(), exchange.fieldValues("Authorization", authorizations));
  tokenRequest.query = rawQuery(exchange.target());
  tokenRequest.body = body;
  tokenRequest.clientAddress = exchange.clientHost();

  auth::TokenOutcome outcome = context_.auth.tokenEndpoint().handle(tokenRequest);
  context_.metrics.countTokenOutcome(outcome.cause);
  if (outcome.cause == auth::tokenCause("issued")) context_.usage.tokenIssued(outcome.clientId, outcome.organizationId);
  // The endpoint's own fault (registry, randomness, signing): one line, like
  // every other handler's failure; the fault's message names no secret.
  if (!outcome.fault.empty() && context_.log) {
    context_.log({app::LogLevel::Error, "token request failed: " + outcome.fault, exchange.requestId()});
  }
  trace.clientId = std::move(outcome.clientId);
  std::string_view contentType = "application/json";
  for (const auto& header : outcome.answer.headers) {
    if (common::equalsIgnoringAsciiCase(header.name, "Content-Type")) {
      contentType = header.value;
    } else {
      exchange.addHeader(header.name, header.value);
    }
  }
  sendBody(exchange, outcome.answer.status, contentType, outcome.answer.body, trace);
}

}  // namespace codepayload::server
