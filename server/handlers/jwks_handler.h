// GET /.well-known/jwks.json: the public keys that verify access tokens.
#pragma once

#include "server/handlers/service_handler.h"

namespace codepayload::server {

class JwksHandler final : public ServiceHandler {
 public:
  explicit JwksHandler(const ServiceContext& context) : ServiceHandler(context, FaultBody::Envelope) {}

 private:
  void handle(HttpExchange& exchange, RequestTrace& trace) const override;
};

}  // namespace codepayload::server
