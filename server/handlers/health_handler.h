// The health endpoints, unauthenticated, for load balancers, probes and
// orchestrators (JSON bodies, Cache-Control: no-store):
//   GET /healthz        {"status":"ok","release":"<dictionary release of the current rules>"}
//   GET /healthz/live   200 {"status":"live"}: the process answers requests
//   GET /healthz/ready  200 when the rules are loaded and the client registry
//                       reachable, 503 otherwise; the body names the release
//                       served and each check's state (D-O4):
//                       {"status":"ready"|"not ready","release":"2026-01-27"|null,
//                        "checks":{"rules":"ok"|<why not>,"registry":"ok"|<why not>}}
#pragma once

#include <chrono>
#include <string>

#include "auth/auth_service.h"
#include "server/handlers/service_handler.h"

namespace codepayload::server {

class HealthHandler final : public ServiceHandler {
 public:
  explicit HealthHandler(const ServiceContext& context) : ServiceHandler(context, FaultBody::Envelope) {}

 private:
  void handle(HttpExchange& exchange, RequestTrace& trace) const override;
};

class LivenessHandler final : public ServiceHandler {
 public:
  explicit LivenessHandler(const ServiceContext& context) : ServiceHandler(context, FaultBody::Envelope) {}

 private:
  void handle(HttpExchange& exchange, RequestTrace& trace) const override;
};

class ReadinessHandler final : public ServiceHandler {
 public:
  explicit ReadinessHandler(const ServiceContext& context) : ServiceHandler(context, FaultBody::Envelope) {}

 private:
  void handle(HttpExchange& exchange, RequestTrace& trace) const override;
};

// The registry counts as reachable while its latest check succeeded and that
// was at most this long ago: ten polls, and never less than 5 s.
std::chrono::milliseconds registryStaleAfter(std::chrono::milliseconds pollInterval);

// Ready (200) once rules are loaded: /codes answers valid tokens from memory
// whatever the registry does. A registry that cannot be read, or was not read
// for registryStaleAfter, makes the answer "degraded", still 200 with its
// reason: new tokens and changes wait for it, but a load balancer that checks
// readiness keeps sending /codes to the instance (docs/decisions.md D-G12).
struct Readiness {
  bool ready = false;
  std::string body;  // {"status":"ready"|"degraded"|"not ready","release":...,"checks":{...}}
};

// /healthz/ready's answer: `release` is the release of the rules served
// (nullptr: no rules loaded).
Readiness assessReadiness(const std::string* release, const auth::AuthService::RegistryRefresh& registry,
                          std::chrono::milliseconds pollInterval, std::chrono::steady_clock::time_point now);

}  // namespace codepayload::server
