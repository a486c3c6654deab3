#include "server/observability/metrics_endpoint.h"

#include "server/observability/metrics_exposition.h"

namespace codepayload::server {

void MetricsEndpoint::serve(HttpExchange& exchange) noexcept {
  try {
    exchange.addHeader("X-Content-Type-Options", "nosniff");
    exchange.addHeader("Cache-Control", "no-store");
    if (exchange.path() != "/metrics" || exchange.method() != "GET") {
      exchange.send(404, "text/plain; charset=utf-8", "Not found: this listener serves GET /metrics only.\n");
      return;
    }
    std::string text;
    render_(text);
    exchange.send(200, kMetricsContentType, text);
  } catch (...) {
    // Left unanswered, the connection loop answers 500 and closes.
  }
}

}  // namespace codepayload::server
