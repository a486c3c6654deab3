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

#include "server/http_connection.h"
#include "server/service_context.h"
#include "server/service_handler.h"

namespace codepayload::server {

// Strict-Transport-Security of every answer sent over TLS: a year, for this
// host only (no includeSubDomains, no preload: both speak for names the
// service does not own).
inline constexpr std::string_view kStrictTransportSecurity = "max-age=31536000";

class RequestRouter final : public HttpService {
 public:
  // What one listener serves: the API, the API and the dashboard, or (the
  // dashboard's own listener, dashboard.listen) the dashboard alone.
  enum class Scope { Api, ApiAndDashboard, Dashboard };

  // The dashboard needs context.dashboard.
  RequestRouter(const ServiceContext& context, Scope scope);
  ~RequestRouter() override;

  // Serves a request of an HTTPS listener: every answer carries
  // Strict-Transport-Security.
  void serve(HttpExchange& exchange) noexcept override;

  // The same routes for the plain listener (plain.listen), which only a
  // TLS-terminating proxy talks to: its answers carry no
  // Strict-Transport-Security, the proxy owns that header.
  HttpService& plainListener() { return plainListener_; }

 private:
  class PlainListener final : public HttpService {
   public:
    explicit PlainListener(RequestRouter& router) : router_(router) {}
    void serve(HttpExchange& exchange) noexcept override { router_.route(exchange); }

   private:
    RequestRouter& router_;
  };

  void route(HttpExchange& exchange) noexcept;

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
  PlainListener plainListener_{*this};
};

}  // namespace codepayload::server
