// POST /codes and POST /codes/parse: bearer check (each with its own
// scope), Content-Type, Accept and the large-request slots before the body is
// read (admitRequest), then the payload engine, generating or reading back.
// The engine decides everything about the payloads; this handler only maps
// its result to HTTP.
#pragma once

#include "auth/known_scopes.h"
#include "server/handlers/service_handler.h"

namespace codepayload::server {

enum class CodesOperation {
  Generate,  // POST /codes, scope write:codes
  Parse,     // POST /codes/parse, scope read:codes
};

class CodesHandler final : public ServiceHandler {
 public:
  CodesHandler(const ServiceContext& context, CodesOperation operation)
      : ServiceHandler(context, FaultBody::Envelope), operation_(operation) {}

 private:
  std::size_t admitRequest(HttpExchange& exchange, RequestTrace& trace) const override;
  void handle(HttpExchange& exchange, RequestTrace& trace) const override;
  // Counts the request's use of its client (D-D11).
  void countUsage(const RequestTrace& trace, std::uint64_t accepted, std::uint64_t rejected) const;
  // Answers a request refused for want of a large-request slot.
  void refuseLarge(HttpExchange& exchange, RequestTrace& trace, LargeRequestSlots::Refusal refusal) const;

  CodesOperation operation_;
};

}  // namespace codepayload::server
