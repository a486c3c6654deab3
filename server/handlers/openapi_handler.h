// GET /openapi.json: the OpenAPI 3.1 description of the service (D-V1).
#pragma once

#include "server/handlers/service_handler.h"

namespace codepayload::server {

class OpenApiHandler final : public ServiceHandler {
 public:
  explicit OpenApiHandler(const ServiceContext& context) : ServiceHandler(context, FaultBody::Envelope) {}

 private:
  void handle(HttpExchange& exchange, RequestTrace& trace) const override;
};

}  // namespace codepayload::server
