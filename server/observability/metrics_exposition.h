// The Prometheus text exposition (format 0.0.4) of the service's metrics
// (D-O1, D-O3): what a GET /metrics on the metrics listener answers. A pure
// function of the counters and of values read at scrape time, so its output is
// tested exactly (tests/server/observability/metrics_exposition_test.cpp) and checked
// with `promtool check metrics` against a running server.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/engine_metrics.h"
#include "server/connections/http_transport.h"
#include "server/observability/service_metrics.h"

namespace codepayload::server {

inline constexpr std::string_view kMetricsContentType = "text/plain; version=0.0.4; charset=utf-8";

// What a scrape reads besides the counter blocks.
struct ScrapeValues {
  std::string_view version;            // the project version
  std::string_view commit;             // git commit or "unknown"
  std::string_view dictionaryRelease;  // the release of the shipped baseline
  std::string_view rulesRelease;       // the release of the rules served now
  std::uint64_t rulesReloads = 0;
  std::uint64_t rulesReloadFailures = 0;
  double registryRefreshAgeSeconds = 0;  // since a check last read the registry
  std::uint64_t registryRefreshFailures = 0;
  std::uint64_t usageWrites = 0;  // writes of API client usage to the registry (auth/usage_service.h)
  std::uint64_t usageWriteFailures = 0;
  HttpTransport::Counts connections;  // refused and closed connections
  std::int64_t openConnections = 0;
};

// Appends the exposition to `out`. Every metric has HELP and TYPE lines;
// requests per route and status appear once a request got that status;
// everything else is always present (zero until counted).
void writePrometheusText(const ScrapeValues& values, const ServiceMetrics& service, const EngineMetrics& engine,
                         std::string& out);

// The route label of a RouteMetrics: its path, or "unmatched".
std::string_view routeLabel(std::string_view route);

}  // namespace codepayload::server
