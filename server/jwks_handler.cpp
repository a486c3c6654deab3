#include "server/jwks_handler.h"

namespace codepayload::server {

void JwksHandler::handle(Poco::Net::HTTPServerRequest&, Poco::Net::HTTPServerResponse& response,
                         RequestTrace& trace) {
  // Keys change only at a restart (rotation is a restart, see auth_service.h):
  // five minutes of caching is far below the rotation lead time.
  response.set("Cache-Control", "public, max-age=300");
  sendBody(response, 200, "OK", "application/jwk-set+json", context_.auth.jwksJson(), trace);
}

}  // namespace codepayload::server
