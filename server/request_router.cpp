#include "server/request_router.h"

#include <Poco/Net/HTTPRequest.h>

#include <array>
#include <string>

#include "server/codes_handler.h"
#include "server/health_handler.h"
#include "server/jwks_handler.h"
#include "server/request_body.h"
#include "server/token_handler.h"

namespace codepayload::server {

namespace {

// Answers 404 or 405 for requests no route takes.
class RouteErrorHandler final : public ServiceHandler {
 public:
  RouteErrorHandler(const ServiceContext& context, std::string_view allow)
      : ServiceHandler(context, FaultBody::Envelope), allow_(allow) {}

 private:
  void handle(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response,
              RequestTrace& trace) override {
    discardUnreadBody(request, response);
    if (allow_.empty()) {
      sendErrorEnvelope(response, 404, "NotFound", std::nullopt, "There is no resource at this path.", trace);
    } else {
      response.set("Allow", std::string(allow_));
      sendErrorEnvelope(response, 405, "MethodNotAllowed", std::nullopt,
                        "This resource only allows " + std::string(allow_) + ".", trace);
    }
  }

  std::string_view allow_;
};

using HandlerFactory = ServiceHandler* (*)(const ServiceContext&);

struct Route {
  std::string_view path;
  std::string_view method;  // "" = every method
  HandlerFactory create;
};

template <typename Handler>
ServiceHandler* make(const ServiceContext& context) {
  return new Handler(context);
}

constexpr std::array kRoutes{
    Route{"/codes", "POST", make<CodesHandler>},
    Route{"/oauth/token", "", make<TokenHandler>},
    Route{"/.well-known/jwks.json", "GET", make<JwksHandler>},
    Route{"/healthz", "GET", make<HealthHandler>},
};

}  // namespace

std::string_view requestPath(std::string_view target) {
  if (!target.starts_with('/')) {
    const auto scheme = target.find("://");
    if (scheme == std::string_view::npos) return {};
    const auto pathStart = target.find('/', scheme + 3);
    if (pathStart == std::string_view::npos) return "/";
    target = target.substr(pathStart);
  }
  const auto end = target.find_first_of("?#");
  return end == std::string_view::npos ? target : target.substr(0, end);
}

Poco::Net::HTTPRequestHandler* RequestRouter::createRequestHandler(const Poco::Net::HTTPServerRequest& request) {
  const std::string_view path = requestPath(request.getURI());
  for (const Route& route : kRoutes) {
    if (route.path != path) continue;
    ServiceHandler* handler = (route.method.empty() || route.method == request.getMethod())
                                  ? route.create(context_)
                                  : new RouteErrorHandler(context_, route.method);
    handler->setRoutePath(route.path);
    return handler;
  }
  return new RouteErrorHandler(context_, {});
}

}  // namespace codepayload::server
