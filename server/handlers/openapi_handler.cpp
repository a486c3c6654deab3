#include "server/handlers/openapi_handler.h"

#include "server/handlers/openapi_document.h"

namespace codepayload::server {

void OpenApiHandler::handle(HttpExchange& exchange, RequestTrace& trace) const {
  // The document changes only with the binary.
  exchange.addHeader("Cache-Control", "public, max-age=300");
  sendBody(exchange, 200, "application/json", openApiDocument(), trace);
}

}  // namespace codepayload::server
