// Routes a request to its handler: one table row per endpoint (path, method,
// handler). Unknown path -> 404, known path with another method -> 405 with
// Allow, both as ErrorEnvelopes. /oauth/token takes every method: the token
// endpoint itself answers non-POST requests (405, flat {"error"} body).
#pragma once

#include <Poco/Net/HTTPRequestHandlerFactory.h>

#include <string_view>

#include "server/service_context.h"

namespace codepayload::server {

class RequestRouter final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit RequestRouter(const ServiceContext& context) : context_(context) {}

  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest& request) override;

  // Tells every open connection of the servers using this router that they
  // stopped: idle ones close at once, busy ones after their request (or at
  // once with `abortCurrent`). What Poco's HTTPServer::stopAll does.
  void stopConnections(bool abortCurrent) { serverStopped(this, abortCurrent); }

 private:
  const ServiceContext& context_;
};

// The path of a request target: origin-form up to '?' or '#'; for an
// absolute-form target ("https://host/codes?x") the path part; "" when the
// target has neither form.
std::string_view requestPath(std::string_view target);

}  // namespace codepayload::server
