#include "server/handlers/health_handler.h"

#include <algorithm>
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

void LivenessHandler::handle(HttpExchange& exchange, RequestTrace& trace) const {
  exchange.addHeader("Cache-Control", "no-store");
  sendBody(exchange, 200, "application/json", R"({"status":"live"})", trace);
}

void ReadinessHandler::handle(HttpExchange& exchange, RequestTrace& trace) const {
  const auto snapshot = context_.rules.current();
  const Readiness readiness =
      assessReadiness(snapshot ? &snapshot->release().name : nullptr, context_.auth.registryRefresh(),
                      context_.auth.registryPollInterval(), std::chrono::steady_clock::now());
  exchange.addHeader("Cache-Control", "no-store");
  sendBody(exchange, readiness.ready ? 200 : 503, "application/json", readiness.body, trace);
}

std::chrono::milliseconds registryStaleAfter(std::chrono::milliseconds pollInterval) {
  return std::max(std::chrono::milliseconds(5000), pollInterval * 10);
}

Readiness assessReadiness(const std::string* release, const auth::AuthService::RegistryRefresh& registry,
                          std::chrono::milliseconds pollInterval, std::chrono::steady_clock::time_point now) {
  const bool rulesLoaded = release != nullptr && !release->empty();
  std::string registryState = "ok";
  const auto sinceSuccess = std::chrono::duration_cast<std::chrono::seconds>(now - registry.lastSuccess);
  if (registry.lastFailed) {
    registryState =
        "the latest check could not read the registry (last read " + std::to_string(sinceSuccess.count()) + " s ago)";
  } else if (now - registry.lastSuccess > registryStaleAfter(pollInterval)) {
    registryState = "not checked for " + std::to_string(sinceSuccess.count()) + " s";
  }
  Readiness readiness;
  readiness.ready = rulesLoaded;
  std::string& body = readiness.body;
  body = !rulesLoaded               ? R"({"status":"not ready","release":)"
         : registryState == "ok" ? R"({"status":"ready","release":)"
                                 : R"({"status":"degraded","release":)";
  if (rulesLoaded) {
    common::appendJsonString(body, *release);
  } else {
    body.append("null");
  }
  body.append(R"(,"checks":{"rules":)");
  common::appendJsonString(body, rulesLoaded ? "ok" : "no rules are loaded");
  body.append(R"(,"registry":)");
  common::appendJsonString(body, registryState);
  body.append("}}");
  return readiness;
}

}  // namespace codepayload::server
