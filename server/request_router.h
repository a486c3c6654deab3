// Routes a request to its handler: one table row per endpoint (path, method,
// handler). A GET route also takes HEAD (RFC 9110 §9.3.2). Unknown path ->
// 404, known path with another method -> 405 with Allow ("GET, HEAD" on a GET
// route), both as ErrorEnvelopes. /oauth/token takes every method: the token
// endpoint itself answers non-POST requests (405, flat {"error"} body). Every
// route is described in docs/openapi.json (tests/openapi compares the two).
// Every path under /dashboard/ goes to the dashboard's own handler (when the
// dashboard is on), which routes further: the pages' private interface, not
// the public API, so not in docs/openapi.json (D-D20).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "server/connections/http_connection.h"
#include "server/handlers/service_context.h"
#include "server/handlers/service_handler.h"

namespace codepayload::server {

class RequestRouter final : public HttpService {
 public:
  // What one listener serves: the API, the API and the dashboard, or (the
  // dashboard's own listener, dashboard.listen) the dashboard alone.
  enum class Scope { Api, ApiAndDashboard, Dashboard };

  // The dashboard needs context.dashboard.
  RequestRouter(const ServiceContext& context, Scope scope);
  ~RequestRouter() override;

  std::size_t admit(HttpExchange& exchange) noexcept override;
  void serve(HttpExchange& exchange) noexcept override;

 private:
  struct Route {
    std::string_view path;
    std::string_view method;  // "" = every method
    std::unique_ptr<ServiceHandler> handler;
    std::unique_ptr<ServiceHandler> wrongMethod;  // 405 with Allow: method
    RouteMetrics* metrics;
  };

  std::vector<Route> routes_;
  std::unique_ptr<ServiceHandler> dashboard_;  // null when the dashboard is off
  RouteMetrics* dashboardMetrics_ = nullptr;
  std::unique_ptr<ServiceHandler> notFound_;
  RouteMetrics* notFoundMetrics_;
};

}  // namespace codepayload::server
