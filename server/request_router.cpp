#include "server/request_router.h"

#include <stdexcept>
#include <string>

#include "common/error_codes.h"
#include "server/dashboard/dashboard_handler.h"
#include "server/handlers/codes_handler.h"
#include "server/handlers/health_handler.h"
#include "server/handlers/jwks_handler.h"
#include "server/handlers/openapi_handler.h"
#include "server/handlers/token_handler.h"

namespace codepayload::server {

namespace {

constexpr std::string_view kDashboardPrefix = "/dashboard/";

// Answers 404, or 405 with Allow, for requests no route takes.
class RouteErrorHandler final : public ServiceHandler {
 public:
  RouteErrorHandler(const ServiceContext& context, std::string_view allow)
      : ServiceHandler(context, FaultBody::Envelope), allow_(allow) {}

 private:
  void handle(HttpExchange& exchange, RequestTrace& trace) const override {
    if (allow_.empty()) {
      sendErrorEnvelope(exchange, 404, error_code::kNotFound, std::nullopt, "There is no resource at this path.",
                        trace);
    } else {
      exchange.addHeader("Allow", allow_);
      sendErrorEnvelope(exchange, 405, error_code::kMethodNotAllowed, std::nullopt,
                        "This resource only allows " + std::string(allow_) + ".", trace);
    }
  }

  std::string_view allow_;
};

}  // namespace

RequestRouter::RequestRouter(const ServiceContext& context, Scope scope)
    : notFound_(std::make_unique<RouteErrorHandler>(context, std::string_view())),
      notFoundMetrics_(&context.metrics.route({})) {
  const auto route = [&](std::string_view path, std::string_view method, std::unique_ptr<ServiceHandler> handler) {
    routes_.push_back(
        Route{path, method, std::move(handler),
              method.empty() ? nullptr : std::make_unique<RouteErrorHandler>(context, allowedMethods(method)),
              &context.metrics.route(path)});
  };
  if (scope != Scope::Dashboard) {
    route("/codes", "POST", std::make_unique<CodesHandler>(context, CodesOperation::Generate));
    route("/codes/parse", "POST", std::make_unique<CodesHandler>(context, CodesOperation::Parse));
    route("/oauth/token", "", std::make_unique<TokenHandler>(context));
    route("/.well-known/jwks.json", "GET", std::make_unique<JwksHandler>(context));
    route("/healthz", "GET", std::make_unique<HealthHandler>(context));
    route("/healthz/live", "GET", std::make_unique<LivenessHandler>(context));
    route("/healthz/ready", "GET", std::make_unique<ReadinessHandler>(context));
    route("/openapi.json", "GET", std::make_unique<OpenApiHandler>(context));
  }
  if (scope != Scope::Api) {
    if (context.dashboard == nullptr) throw std::logic_error("a router with the dashboard needs its accounts");
    dashboard_ = std::make_unique<DashboardHandler>(context, *context.dashboard);
    dashboardMetrics_ = &context.metrics.route(kDashboardPrefix);
  }
}

RequestRouter::~RequestRouter() = default;

std::size_t RequestRouter::admit(HttpExchange& exchange) noexcept {
  const std::string_view path = exchange.path();
  if (dashboard_ && path.starts_with(kDashboardPrefix)) return dashboard_->admit(exchange, *dashboardMetrics_);
  for (const Route& route : routes_) {
    if (route.path != path) continue;
    const bool methodMatches = route.method.empty() || routeTakes(route.method, exchange.method());
    return (methodMatches ? *route.handler : *route.wrongMethod).admit(exchange, *route.metrics);
  }
  return notFound_->admit(exchange, *notFoundMetrics_);
}

void RequestRouter::serve(HttpExchange& exchange) noexcept { ServiceHandler::serveAdmitted(exchange); }

}  // namespace codepayload::server
