// GET /healthz: {"status":"ok","release":"<dictionary release of the current rules>"}.
// Unauthenticated, for load balancers and probes.
#pragma once

#include "server/service_handler.h"

namespace codepayload::server {

class HealthHandler final : public ServiceHandler {
 public:
  explicit HealthHandler(const ServiceContext& context) : ServiceHandler(context, FaultBody::Envelope) {}

 private:
  void handle(HttpExchange& exchange, RequestTrace& trace) const override;
};

}  // namespace codepayload::server
