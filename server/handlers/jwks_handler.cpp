#include "server/handlers/jwks_handler.h"

namespace codepayload::server {

void JwksHandler::handle(HttpExchange& exchange, RequestTrace& trace) const {
  // Keys change only at a restart (rotation is a restart, see auth_service.h):
  // five minutes of caching is far below the rotation lead time.
  exchange.addHeader("Cache-Control", "public, max-age=300");
  sendBody(exchange, 200, "application/jwk-set+json", context_.auth.jwksJson(), trace);
}

}  // namespace codepayload::server
