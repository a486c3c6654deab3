// What every request handler of the service shares: read-only settings and
// the long-lived parts (rules, engine, OAuth, access log). Lives as long as
// the service; handlers hold a reference.
#pragma once

#include <functional>
#include <string_view>

#include "app/logging.h"
#include "auth/auth_service.h"
#include "auth/usage_service.h"
#include "engine/payload_engine.h"
#include "engine/snapshot.h"
#include "server/observability/access_log.h"
#include "server/connections/large_request_slots.h"
#include "server/config/server_config.h"
#include "server/observability/service_metrics.h"

namespace codepayload::server {

class DashboardAccounts;

// Where operational messages go (startup, reloads, handler faults): one line
// each, without secrets, with a level and, for a line about a request, its id
// (app/logging.h). A function of plain text is one too: it gets the message.
using ServiceLogger = std::function<void(const app::LogLine& line)>;

struct ServiceContext {
  const ServerConfig& config;
  SnapshotHolder& rules;
  const PayloadEngine& engine;
  auth::AuthService& auth;
  AccessLog& accessLog;
  ServiceLogger log;
  // Large /codes requests in flight per client id (config.largeBodyBytes,
  // config.maxLargeRequestsPerClient).
  LargeRequestSlots& largeRequests;
  // The server's counters (server/observability/service_metrics.h).
  ServiceMetrics& metrics;
  // The API clients' usage: the token and /codes handlers count into it, the
  // dashboard reads it (auth/usage_service.h).
  auth::UsageService& usage;
  // What the dashboard's handlers work with (server/dashboard/); null when
  // the dashboard is off.
  DashboardAccounts* dashboard = nullptr;
};

}  // namespace codepayload::server
