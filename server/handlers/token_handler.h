// POST /oauth/token (and every other method on that path): hands the request
// as plain values to the auth library's TokenEndpoint and copies its answer.
// No OAuth decision is made here.
#pragma once

#include "server/handlers/service_handler.h"

namespace codepayload::server {

class TokenHandler final : public ServiceHandler {
 public:
  explicit TokenHandler(const ServiceContext& context) : ServiceHandler(context, FaultBody::TokenError) {}

 private:
  // A POST's form body, up to the endpoint's limit; no other method's.
  std::size_t admitRequest(HttpExchange& exchange, RequestTrace& trace) const override;
  void handle(HttpExchange& exchange, RequestTrace& trace) const override;
};

}  // namespace codepayload::server
