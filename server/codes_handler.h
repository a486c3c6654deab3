// POST /codes: bearer check (before the body is read), Content-Type, Accept,
// body limits, then the payload engine. The engine decides everything about
// the payloads; this handler only maps its result to HTTP.
#pragma once

#include "server/service_handler.h"

namespace codepayload::server {

inline constexpr std::string_view kCodesScope = "write:codes";

class CodesHandler final : public ServiceHandler {
 public:
  explicit CodesHandler(const ServiceContext& context) : ServiceHandler(context, FaultBody::Envelope) {}

 private:
  void handle(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response,
              RequestTrace& trace) override;
};

// Counts the entries of a CodesResponse written by the engine: "barcodeText"
// members (one per generated code) and "errors" members (one per failure).
// Exact, because inside a JSON string every '"' is escaped, so the key
// spellings cannot occur inside a value.
struct CodesResponseCounts {
  std::size_t codes = 0;
  std::size_t failures = 0;
};
CodesResponseCounts countCodesResponse(std::string_view responseJson);

}  // namespace codepayload::server
