// POST /codes: bearer check (before the body is read), Content-Type, Accept,
// body limits, then the payload engine. The engine decides everything about
// the payloads; this handler only maps its result to HTTP.
#pragma once

#include "auth/known_scopes.h"
#include "server/service_handler.h"

namespace codepayload::server {

inline constexpr std::string_view kCodesScope = auth::kWriteCodesScope;

class CodesHandler final : public ServiceHandler {
 public:
  explicit CodesHandler(const ServiceContext& context) : ServiceHandler(context, FaultBody::Envelope) {}

 private:
  void handle(HttpExchange& exchange, RequestTrace& trace) const override;
};

}  // namespace codepayload::server
