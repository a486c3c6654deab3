#include "server/health_handler.h"

#include <string>

#include "common/json_escape.h"

namespace codepayload::server {

void HealthHandler::handle(HttpExchange& exchange, RequestTrace& trace) const {
  const auto snapshot = context_.rules.current();
  std::string body = R"({"status":"ok","release":)";
  common::appendJsonString(body, snapshot->release().name);
  body.push_back('}');
  exchange.addHeader("Cache-Control", "no-store");
  sendBody(exchange, 200, "application/json", body, trace);
}

}  // namespace codepayload::server
