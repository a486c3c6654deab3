// POST /codes: bearer check, Content-Type, Accept and the large-request
// slots before the body is read (admitRequest), then the payload engine. The
// engine decides everything about the payloads; this handler only maps its
// result to HTTP.
#pragma once

#include "auth/known_scopes.h"
#include "server/handlers/service_handler.h"

namespace codepayload::server {

inline constexpr std::string_view kCodesScope = auth::kWriteCodesScope;

class CodesHandler final : public ServiceHandler {
 public:
  explicit CodesHandler(const ServiceContext& context) : ServiceHandler(context, FaultBody::Envelope) {}

 private:
  std::size_t admitRequest(HttpExchange& exchange, RequestTrace& trace) const override;
  void handle(HttpExchange& exchange, RequestTrace& trace) const override;
  // Counts the request's use of its client (D-D11).
  void countUsage(const RequestTrace& trace, std::uint64_t accepted, std::uint64_t rejected) const;
  // Answers a request refused for want of a large-request slot.
  void refuseLarge(HttpExchange& exchange, RequestTrace& trace, LargeRequestSlots::Refusal refusal) const;
};

}  // namespace codepayload::server
