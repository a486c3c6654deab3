// The metrics listener's only service (setting metrics.listen, D-O3): GET
// /metrics answers the Prometheus text; every other request is 404. Plain
// HTTP on its own host:port, apart from the API listeners, so a scrape never
// needs a token and never waits behind API requests. The text names no client,
// token or secret.
#pragma once

#include <functional>
#include <string>

#include "server/connections/http_connection.h"

namespace codepayload::server {

class MetricsEndpoint final : public HttpService {
 public:
  // `render` appends the exposition to its argument (server/observability/metrics_exposition.h).
  explicit MetricsEndpoint(std::function<void(std::string&)> render) : render_(std::move(render)) {}

  // No request here has a body.
  std::size_t admit(HttpExchange& /*exchange*/) noexcept override { return 0; }
  void serve(HttpExchange& exchange) noexcept override;

 private:
  std::function<void(std::string&)> render_;
};

}  // namespace codepayload::server
