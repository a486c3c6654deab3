#include "server/observability/service_metrics.h"

namespace codepayload::server {

RouteMetrics& ServiceMetrics::route(std::string_view path) {
  for (RouteMetrics& known : routes_) {
    if (known.route() == path) return known;
  }
  return routes_.emplace_back(path);
}

void ServiceMetrics::countTokenOutcome(std::string_view cause) noexcept {
  for (std::size_t index = 0; index < auth::kTokenOutcomeCauses.size(); ++index) {
    if (auth::kTokenOutcomeCauses[index] == cause) {
      tokenOutcomes_[index].add();
      return;
    }
  }
}

}  // namespace codepayload::server
